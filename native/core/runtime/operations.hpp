// Operations: the host's in-flight asynchronous calls (GetToken, UpdateToken, …), each completed exactly once.
//
// An operation's callback is invoked exactly once, on a host thread:
//   - with its real result, through the client's callback queue, when the I/O thread finishes it;
//   - with ClientDestroyed, at Drop, when it is still in flight (native/SEMANTICS.md "Client lifetime");
//   - with Aborted, at ResetCallbacks (or a superseding call such as AbortAuthorize).
// Whoever claims the operation first wins; the loser does nothing. The host's callback (and so its user
// data) is only ever destroyed on a host thread: the I/O thread moves it into a queued Job, never frees it.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "generated/values.hpp"
#include "runtime/callback.hpp"
#include "runtime/callback_queue.hpp"

namespace svcpp::core {

/** A ClientResult of the given failure type with a message (only Error set, like a local failure). */
ClientResult FailureResult(ErrorType type, std::string message);

/** Type-erased view of an in-flight operation, for the registry. */
class OperationBase {
  public:
    virtual ~OperationBase() = default;
    /** Completes the operation now, on the calling (host) thread, with a failure; false when already claimed. */
    virtual bool FailNow(const ClientResult &result) = 0;
};

/** The registry of a client's in-flight operations. Thread-safe. */
class Operations {
  public:
    explicit Operations(CallbackQueue &queue) : queue_(queue) {}

    CallbackQueue &Queue() { return queue_; }
    uint64_t Add(std::shared_ptr<OperationBase> op);
    void Remove(uint64_t id);
    /** Fails every in-flight operation on the calling thread (Drop: ClientDestroyed; ResetCallbacks: Aborted). */
    void FailAll(const ClientResult &result);

  private:
    CallbackQueue &queue_;
    std::mutex mutex_;
    uint64_t nextId_ = 1;
    std::map<uint64_t, std::shared_ptr<OperationBase>> inflight_;
};

/** Storage type of a callback argument: views become owning strings so they outlive the I/O handler. */
template <class T>
using Stored = std::conditional_t<std::is_same_v<std::decay_t<T>, std::string_view>, std::string, std::decay_t<T>>;

template <class Sig>
class Operation;

/**
 * One in-flight operation whose callback takes (const ClientResult &, Args...). Create with Begin(); the
 * I/O thread calls Complete(); Drop / ResetCallbacks call FailNow through the registry.
 */
template <class... Args>
class Operation<void(const ClientResult &, Args...)>
    : public OperationBase, public std::enable_shared_from_this<Operation<void(const ClientResult &, Args...)>> {
  public:
    using Cb = Callback<void(const ClientResult &, Args...)>;

    static std::shared_ptr<Operation> Begin(Operations &registry, Cb &&cb) {
        std::shared_ptr<Operation> op(new Operation(registry, std::move(cb)));
        op->id_ = registry.Add(op);
        return op;
    }

    /** Queues the callback with this result (any thread). Ignored when the operation was already failed. */
    void Complete(ClientResult result, Stored<Args>... args) {
        if (claimed_.exchange(true)) return;
        registry_.Remove(id_);
        // The job is the callback's only owner: a copy kept here could be the last one if the host pumps the job
        // before Post returns, and would then free the host's user data on this (SDK) thread.
        registry_.Queue().Post(Job{[cb = std::make_shared<Cb>(TakeCallback()), result = std::move(result),
                                    stored = std::make_tuple(std::move(args)...)](JobMode mode) mutable {
                                       if (mode == JobMode::Abort) {
                                           Invoke(*cb, FailureResult(ErrorType::Aborted, "callbacks were reset"));
                                           return;
                                       }
                                       std::apply([&](auto &...a) { cb->fn(result, a...); }, stored);
                                   },
                                   true});
    }

    /** Convenience: a failure with default values for the other arguments. */
    void Fail(ClientResult result) { Complete(std::move(result), Stored<Args>{}...); }

    bool FailNow(const ClientResult &result) override {
        if (claimed_.exchange(true)) return false;
        Cb cb = TakeCallback();
        Invoke(cb, result);
        return true;
    }

  private:
    Operation(Operations &registry, Cb &&cb) : registry_(registry), cb_(std::move(cb)) {}

    Cb TakeCallback() {
        std::lock_guard lock(mutex_);
        return std::move(cb_);
    }

    static void Invoke(Cb &cb, const ClientResult &result) {
        if (cb) cb.fn(result, Stored<Args>{}...);
    }

    Operations &registry_;
    uint64_t id_ = 0;
    std::atomic<bool> claimed_{false};
    std::mutex mutex_;
    Cb cb_;
};

}  // namespace svcpp::core
