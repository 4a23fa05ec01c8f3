#include "threads/sdk_threads.hpp"

#include <string>
#include <vector>

#include "threads/os_thread.hpp"

namespace svcpp::core {

SdkThreads::SdkThreads(std::optional<uint64_t> cpuAffinityMask, RefusalLog log)
    : affinity_(cpuAffinityMask), log_(std::move(log)) {}

pid_t SdkThreads::CurrentThreadId() { return static_cast<pid_t>(os::CurrentThreadId()); }

SdkThreads::Membership SdkThreads::Enter(ClientThread kind, const char *name) {
    os::NameCurrentThread(name);
    if (affinity_) os::PinCurrentThread(*affinity_);
    // The real-time audio thread joins the system's real-time audio class where there is one (Windows' MMCSS
    // "Pro Audio"), for the rest of its life.
    if (kind == ClientThread::Voice) os::EnterRealTimeAudioClass();
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
    const std::string refusal = os::SetThreadNice(tid, nice);
    if (refusal.empty() || !log_) return;
    log_(std::string("SetThreadPriority: the OS refused nice ") + std::to_string(nice) + " for the " + ToString(kind) +
         " thread (" + std::to_string(tid) + "): " + refusal);
}

SdkThreads::Membership::~Membership() {
    if (tid_ == 0) return;
    if (auto owner = owner_.lock()) owner->Leave(tid_);
}

}  // namespace svcpp::core
