// SdkThreads (Client::SetThreadPriority underneath): a priority reaches the running threads of its kind and the ones
// started later, and an OS refusal is logged, never thrown. Priorities are observed the way the OS reports them
// (getpriority on the thread id), not through the class.
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "threads/sdk_threads.hpp"

using svcpp::core::ClientThread;
using svcpp::core::SdkThreads;

namespace {

/** A thread that enters `threads` as `kind` and waits until told to end; reports its id. */
class SdkThread {
  public:
    SdkThread(std::shared_ptr<SdkThreads> threads, ClientThread kind) {
        thread_ = std::thread([this, threads, kind] {
            auto membership = threads->Enter(kind, "svcpp-test");
            std::unique_lock lock(mutex_);
            tid_ = SdkThreads::CurrentThreadId();
            changed_.notify_all();
            changed_.wait(lock, [this] { return stop_; });
        });
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return tid_ != 0; });
    }
    ~SdkThread() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        thread_.join();
    }
    /** The thread's nice value as the OS reports it. */
    int Nice() const {
        errno = 0;
        return ::getpriority(PRIO_PROCESS, static_cast<id_t>(tid_));
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    pid_t tid_ = 0;
    bool stop_ = false;
    std::thread thread_;
};

/** Start value of new threads: the process's nice (threads inherit it). */
int ProcessNice() { return ::getpriority(PRIO_PROCESS, 0); }

/** Drops CAP_SYS_NICE from this process's effective set, so it is as unprivileged as a game (no-op if it lacks it). */
void DropSysNice() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    ASSERT_EQ(::syscall(SYS_capget, &header, data), 0);
    data[CAP_TO_INDEX(CAP_SYS_NICE)].effective &= ~CAP_TO_MASK(CAP_SYS_NICE);
    ASSERT_EQ(::syscall(SYS_capset, &header, data), 0);
    rlimit none{0, 0};  // RLIMIT_NICE 0: no raising beyond what the process started with
    ASSERT_EQ(::setrlimit(RLIMIT_NICE, &none), 0);
}

}  // namespace

TEST(SdkThreads, APriorityReachesTheRunningThreadsOfItsKindOnly) {
    auto threads = std::make_shared<SdkThreads>(std::nullopt, nullptr);
    SdkThread voice(threads, ClientThread::Voice);
    SdkThread network(threads, ClientThread::Network);
    const int start = ProcessNice();
    const int lower = std::min(start + 5, SdkThreads::kMaxPriority);  // lowering a priority needs no privilege
    threads->SetPriority(ClientThread::Voice, lower);
    EXPECT_EQ(voice.Nice(), lower);
    EXPECT_EQ(network.Nice(), start);
    EXPECT_EQ(threads->Priority(ClientThread::Voice), lower);
    EXPECT_FALSE(threads->Priority(ClientThread::Network).has_value());
}

TEST(SdkThreads, APrioritySetBeforeAThreadStartsIsAppliedWhenItEnters) {
    auto threads = std::make_shared<SdkThreads>(std::nullopt, nullptr);
    const int lower = std::min(ProcessNice() + 7, SdkThreads::kMaxPriority);
    threads->SetPriority(ClientThread::Network, lower);
    SdkThread network(threads, ClientThread::Network);
    EXPECT_EQ(network.Nice(), lower);
}

TEST(SdkThreads, AnOsRefusalIsLoggedAndTheThreadKeepsItsPriority) {
    DropSysNice();
    std::vector<std::string> logged;
    std::mutex logMutex;
    auto threads = std::make_shared<SdkThreads>(std::nullopt, [&](std::string line) {
        std::lock_guard lock(logMutex);
        logged.push_back(std::move(line));
    });
    SdkThread io(threads, ClientThread::Client);
    threads->SetPriority(ClientThread::Client, 10);  // lowering: always allowed
    EXPECT_EQ(io.Nice(), 10);
    threads->SetPriority(ClientThread::Client, 2);  // raising again: refused without CAP_SYS_NICE / RLIMIT_NICE
    EXPECT_EQ(io.Nice(), 10);
    std::lock_guard lock(logMutex);
    ASSERT_EQ(logged.size(), 1u);
    EXPECT_NE(logged[0].find("refused nice 2 for the Client thread"), std::string::npos) << logged[0];
    EXPECT_NE(logged[0].find("CAP_SYS_NICE"), std::string::npos) << logged[0];
}
