#include "threads/sdk_threads.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace svcpp::core {

namespace {
void PinCurrentThread(uint64_t mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < 64; ++cpu) {
        if (mask & (uint64_t{1} << cpu)) CPU_SET(cpu, &set);
    }
    // A mask naming no CPU of this machine is ignored rather than failing the client.
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}
}  // namespace

SdkThreads::SdkThreads(std::optional<uint64_t> cpuAffinityMask, RefusalLog log) : affinity_(cpuAffinityMask), log_(std::move(log)) {}

pid_t SdkThreads::CurrentThreadId() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

SdkThreads::Membership SdkThreads::Enter(ClientThread kind, const char *name) {
    pthread_setname_np(pthread_self(), name);
    if (affinity_) PinCurrentThread(*affinity_);
    const pid_t tid = CurrentThreadId();
    std::optional<int32_t> nice;
    {
        std::lock_guard lock(mutex_);
        running_[tid] = kind;
        if (auto it = priorities_.find(kind); it != priorities_.end()) nice = it->second;
    }
    if (nice) Apply(tid, kind, *nice);
    return Membership(weak_from_this(), tid);
}

void SdkThreads::SetPriority(ClientThread kind, int32_t nice) {
    std::vector<pid_t> targets;
    {
        std::lock_guard lock(mutex_);
        priorities_[kind] = nice;
        for (const auto &[tid, k] : running_) {
            if (k == kind) targets.push_back(tid);
        }
    }
    // setpriority on a thread that just left fails with ESRCH: harmless, and reported like any refusal.
    for (pid_t tid : targets) Apply(tid, kind, nice);
}

std::optional<int32_t> SdkThreads::Priority(ClientThread kind) const {
    std::lock_guard lock(mutex_);
    if (auto it = priorities_.find(kind); it != priorities_.end()) return it->second;
    return std::nullopt;
}

void SdkThreads::Leave(pid_t tid) {
    std::lock_guard lock(mutex_);
    running_.erase(tid);
}

void SdkThreads::Apply(pid_t tid, ClientThread kind, int32_t nice) {
    if (::setpriority(PRIO_PROCESS, static_cast<id_t>(tid), nice) == 0) return;
    const int error = errno;
    if (log_) {
        log_(std::string("SetThreadPriority: the OS refused nice ") + std::to_string(nice) + " for the " + ToString(kind) +
             " thread (" + std::to_string(tid) + "): " + std::strerror(error) +
             (error == EACCES || error == EPERM ? " (raising a priority needs CAP_SYS_NICE or RLIMIT_NICE)" : ""));
    }
}

SdkThreads::Membership::~Membership() {
    if (tid_ == 0) return;
    if (auto owner = owner_.lock()) owner->Leave(tid_);
}

}  // namespace svcpp::core
