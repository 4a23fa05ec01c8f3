// CallbackQueue: the per-client queue of work that must run on the host's thread.
//
// The core never calls host code from its own threads. Completions and events become Jobs here; the host
// drains them with Run() (Svcpp_Client_RunCallbacks) on its own thread. An edge-triggered wakeup hook tells
// event-loop hosts that work is pending, so they need no polling timer.
#pragma once
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "runtime/callback.hpp"

namespace svcpp::core {

/** How a job is run: delivered normally, aborted by ResetCallbacks, or ended because the client is destroyed. */
enum class JobMode { Deliver, Abort, Destroyed };

struct Job {
    std::function<void(JobMode)> run;
    bool oneShot = false;  // one-shot completions run exactly once in every mode; events only on Deliver
};

/** True while any client's callbacks are being run on the calling thread (a pump is on the stack). */
bool AnyPumpOnThisThread();

/**
 * Something a host-facing layer installs for the jobs of one pump (the C ABI's event records,
 * Svcpp_Client_DrainEvents): opaque to the core. The callbacks that pump runs find it with CurrentPumpRecorder();
 * a pump without one (and every pump nested inside a callback) hides the outer one, so a recorder only ever sees
 * the jobs of the queue it was installed for.
 */
class PumpRecorder {
  protected:
    ~PumpRecorder() = default;
};

/** The recorder of the innermost pump running on this thread, or nullptr. */
PumpRecorder *CurrentPumpRecorder();

/**
 * Called by a job that has done nothing yet and cannot be taken now (its record does not fit the host's buffer): the
 * pump puts the job back at the front of the queue, unrun, with every job after it, and returns.
 */
void DeclineCurrentJob();

class CallbackQueue {
  public:
    using Hook = std::function<void()>;

    /** Queues a job; fires the hook when the queue goes from empty to non-empty and the hook is armed. */
    void Post(Job job);

    /**
     * Runs the jobs queued when it started, in order, on the calling thread. `shouldStop` is checked after
     * each job (a Drop requested from inside a callback); unrun jobs are put back at the front.
     * Throws AbiError(Busy) when this queue is already being pumped.
     */
    void Run(const std::function<bool()> &shouldStop);
    /** Run, but at most `maxJobs` of the queued jobs (the oldest); the others stay at the front of the queue. */
    void Run(const std::function<bool()> &shouldStop, size_t maxJobs);
    /** Run with `recorder` as the CurrentPumpRecorder() of its jobs (nullptr: none). */
    void Run(const std::function<bool()> &shouldStop, size_t maxJobs, PumpRecorder *recorder);

    /** Removes and returns every queued job (Drop and ResetCallbacks decide how each one ends). */
    std::deque<Job> TakeAll();

    bool HasPending() const;
    bool IsPumpingOnThisThread() const;
    bool IsPumpingOnAnotherThread() const;

    /** Replaces the hook; returns the previous one so the caller destroys it outside any lock. */
    SharedCallback<void()> SetHook(SharedCallback<void()> hook);
    /** Called on every edge, in addition to the per-client hook (the global Svcpp_SetCallbacksPendingHook). */
    void SetGlobalEdgeListener(std::function<void()> listener);

    /**
     * The write end of a wakeup pipe (Svcpp_Client_OpenWakeupFd): one byte is written, non-blocking, on every edge the
     * hook fires on (and once now if work is already queued), so a host waits for work with its event loop's poll
     * instead of a timer, and no SDK thread ever waits for the host. Replaces and closes the previous descriptor; -1
     * only closes it. The queue owns the descriptor and closes it when destroyed.
     */
    void SetWakeupFd(int fd);

    CallbackQueue() = default;
    CallbackQueue(const CallbackQueue &) = delete;
    CallbackQueue &operator=(const CallbackQueue &) = delete;
    ~CallbackQueue();

  private:
    void FireHook();

    mutable std::mutex mutex_;
    std::deque<Job> jobs_;
    bool armed_ = true;  // the hook may fire; disarmed after firing until the next pump starts
    bool pumping_ = false;
    std::thread::id pumpThread_;

    std::mutex hookMutex_;  // guards hook_; the hook is invoked under it (it must not block or call svcpp)
    SharedCallback<void()> hook_;
    std::function<void()> globalListener_;
    int wakeupFd_ = -1;  // guarded by hookMutex_
};

}  // namespace svcpp::core
