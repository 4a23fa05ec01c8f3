// EventSlot: a single-slot host registration (Set…Callback, native/SEMANTICS.md "Callbacks") whose events go through
// the queue.
//
// Set() replaces the registration (an empty callback clears it); Post() queues an event that is delivered
// to the registration current at delivery time, so an event never reaches a cleared or replaced callback.
// The previous registration is released on the thread that called Set (a host thread), never under a lock.
#pragma once
#include <memory>
#include <mutex>
#include <utility>

#include "runtime/callback.hpp"
#include "runtime/callback_queue.hpp"

namespace svcpp::core {

template <class Sig>
class EventSlot;

template <class... Args>
class EventSlot<void(Args...)> {
  public:
    using Cb = Callback<void(Args...)>;

    explicit EventSlot(CallbackQueue &queue) : queue_(queue) {}

    void Set(Cb &&cb) {
        auto next = Share(std::move(cb));
        SharedCallback<void(Args...)> previous;
        {
            std::lock_guard lock(mutex_);
            previous = std::exchange(current_, std::move(next));
        }
    }

    bool IsSet() const {
        std::lock_guard lock(mutex_);
        return current_ != nullptr;
    }

    /** Queues an event with these arguments (copied; views must be turned into owning values by the caller). */
    template <class... Stored>
    void Post(Stored... args) {
        if (!IsSet()) return;  // nobody listens: nothing to queue
        queue_.Post(Job{[this, args...](JobMode mode) {
            if (mode != JobMode::Deliver) return;
            SharedCallback<void(Args...)> cb;
            {
                std::lock_guard lock(mutex_);
                cb = current_;
            }
            if (cb) cb->fn(args...);
        }});
    }

  private:
    CallbackQueue &queue_;
    mutable std::mutex mutex_;
    SharedCallback<void(Args...)> current_;
};

}  // namespace svcpp::core
