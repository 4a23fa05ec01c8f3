#include "runtime/callback_queue.hpp"

#include <cstdint>
#include <iterator>
#include <utility>

#include "runtime/abi_error.hpp"
#include "runtime/wakeup_pipe.hpp"

namespace svcpp::core {

namespace {
thread_local int pumpDepth = 0;  // pumps on this thread's stack (a callback may pump another client)
thread_local PumpRecorder *currentRecorder = nullptr;  // of the innermost pump on this thread's stack
thread_local bool jobDeclined = false;  // set by DeclineCurrentJob, read by the pump right after the job returns
}  // namespace

bool AnyPumpOnThisThread() { return pumpDepth > 0; }

PumpRecorder *CurrentPumpRecorder() { return currentRecorder; }

void DeclineCurrentJob() { jobDeclined = true; }

void CallbackQueue::Post(Job job) {
    bool fire = false;
    {
        std::lock_guard lock(mutex_);
        const bool wasEmpty = jobs_.empty();
        jobs_.push_back(std::move(job));
        if (wasEmpty && armed_) {
            armed_ = false;
            fire = true;
        }
    }
    if (fire) FireHook();
}

void CallbackQueue::Run(const std::function<bool()> &shouldStop) { Run(shouldStop, SIZE_MAX); }

void CallbackQueue::Run(const std::function<bool()> &shouldStop, size_t maxJobs) { Run(shouldStop, maxJobs, nullptr); }

void CallbackQueue::Run(const std::function<bool()> &shouldStop, size_t maxJobs, PumpRecorder *recorder) {
    std::deque<Job> batch;
    {
        std::lock_guard lock(mutex_);
        if (pumping_) throw AbiError(Errc::Busy, "the client's callbacks are already being run");
        pumping_ = true;
        pumpThread_ = std::this_thread::get_id();
        armed_ = true;  // work queued from now on wakes the host again
        if (maxJobs >= jobs_.size()) {
            batch.swap(jobs_);
        } else {  // bounded: the oldest maxJobs; the rest stay queued (not empty, so the hook stays quiet)
            batch.insert(batch.end(), std::make_move_iterator(jobs_.begin()),
                         std::make_move_iterator(jobs_.begin() + maxJobs));
            jobs_.erase(jobs_.begin(), jobs_.begin() + maxJobs);
        }
    }
    ++pumpDepth;
    PumpRecorder *const outerRecorder = std::exchange(currentRecorder, recorder);
    jobDeclined = false;
    struct PumpEnd {  // clears the pumping flag even if a callback throws through us
        CallbackQueue &q;
        PumpRecorder *outer;
        ~PumpEnd() {
            --pumpDepth;
            currentRecorder = outer;
            jobDeclined = false;
            std::lock_guard lock(q.mutex_);
            q.pumping_ = false;
            q.pumpThread_ = {};
        }
    } end{*this, outerRecorder};

    while (!batch.empty()) {
        if (shouldStop && shouldStop()) {
            std::lock_guard lock(mutex_);
            for (auto it = batch.rbegin(); it != batch.rend(); ++it) jobs_.push_front(std::move(*it));
            return;
        }
        Job job = std::move(batch.front());
        batch.pop_front();
        job.run(JobMode::Deliver);
        if (jobDeclined) {  // not taken (DeclineCurrentJob): it goes back first, ahead of the rest of the batch
            jobDeclined = false;
            std::lock_guard lock(mutex_);
            for (auto it = batch.rbegin(); it != batch.rend(); ++it) jobs_.push_front(std::move(*it));
            jobs_.push_front(std::move(job));
            return;
        }
    }
}

std::deque<Job> CallbackQueue::TakeAll() {
    std::lock_guard lock(mutex_);
    std::deque<Job> all;
    all.swap(jobs_);
    return all;
}

bool CallbackQueue::HasPending() const {
    std::lock_guard lock(mutex_);
    return !jobs_.empty();
}

bool CallbackQueue::IsPumpingOnThisThread() const {
    std::lock_guard lock(mutex_);
    return pumping_ && pumpThread_ == std::this_thread::get_id();
}

bool CallbackQueue::IsPumpingOnAnotherThread() const {
    std::lock_guard lock(mutex_);
    return pumping_ && pumpThread_ != std::this_thread::get_id();
}

SharedCallback<void()> CallbackQueue::SetHook(SharedCallback<void()> hook) {
    SharedCallback<void()> previous;
    bool fireNow = false;
    {
        std::lock_guard hookLock(hookMutex_);
        previous = std::exchange(hook_, std::move(hook));
        if (hook_) {
            std::lock_guard lock(mutex_);
            if (!jobs_.empty()) {  // registration with work already queued: announce it once
                armed_ = false;
                fireNow = true;
            }
        }
    }
    if (fireNow) FireHook();
    return previous;
}

void CallbackQueue::SetGlobalEdgeListener(std::function<void()> listener) {
    std::lock_guard hookLock(hookMutex_);
    globalListener_ = std::move(listener);
}

void CallbackQueue::FireHook() {
    std::lock_guard hookLock(hookMutex_);
    if (hook_) hook_->fn();
    if (globalListener_) globalListener_();
    if (wakeupFd_ >= 0) SignalWakeupPipe(wakeupFd_);
}

void CallbackQueue::SetWakeupFd(int fd) {
    std::lock_guard hookLock(hookMutex_);
    CloseWakeupFd(std::exchange(wakeupFd_, fd));
    if (wakeupFd_ < 0) return;
    std::lock_guard lock(mutex_);
    if (!jobs_.empty()) SignalWakeupPipe(wakeupFd_);  // work queued before the host started waiting
}

CallbackQueue::~CallbackQueue() { CloseWakeupFd(wakeupFd_); }

}  // namespace svcpp::core
