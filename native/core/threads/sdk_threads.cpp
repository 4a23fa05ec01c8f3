#include "threads/sdk_threads.hpp"

#include <string>
#include <vector>

namespace svcpp::core {

SdkThreads::SdkThreads(std::optional<uint64_t> cpuAffinityMask, RefusalLog log) : affinity_(cpuAffinityMask), log_(std::move(log)) {}

os::ThreadId SdkThreads::CurrentThreadId() { return os::CurrentThreadId(); }

SdkThreads::Membership SdkThreads::Enter(ClientThread kind, const char *name) {
    os::NameCurrentThread(name);
    if (affinity_) os::PinCurrentThread(*affinity_);
    auto audioClass = kind == ClientThread::Voice ? os::EnterRealTimeAudioClass() : nullptr;
    const os::ThreadId tid = CurrentThreadId();
    std::optional<int32_t> nice;
    {
        std::lock_guard lock(mutex_);
        running_[tid] = kind;
        if (auto it = priorities_.find(kind); it != priorities_.end()) nice = it->second;
    }
    if (nice) Apply(tid, kind, *nice);
    return Membership(weak_from_this(), tid, std::move(audioClass));
}

void SdkThreads::SetPriority(ClientThread kind, int32_t nice) {
    std::vector<os::ThreadId> targets;
    {
        std::lock_guard lock(mutex_);
        priorities_[kind] = nice;
        for (const auto &[tid, k] : running_) {
            if (k == kind) targets.push_back(tid);
        }
    }
    // setpriority on a thread that just left fails with ESRCH: harmless, and reported like any refusal.
    for (os::ThreadId tid : targets) Apply(tid, kind, nice);
}

std::optional<int32_t> SdkThreads::Priority(ClientThread kind) const {
    std::lock_guard lock(mutex_);
    if (auto it = priorities_.find(kind); it != priorities_.end()) return it->second;
    return std::nullopt;
}

void SdkThreads::Leave(os::ThreadId tid) {
    std::lock_guard lock(mutex_);
    running_.erase(tid);
}

void SdkThreads::Apply(os::ThreadId tid, ClientThread kind, int32_t nice) {
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
