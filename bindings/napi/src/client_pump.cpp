#include "client_pump.hpp"

#include <uv.h>

#include <atomic>
#include <memory>
#include <optional>
#include <utility>

#include "callbacks.hpp"
#include "handles.hpp"

namespace svcpp_node {
namespace {

struct Wakeup;

/**
 * Shared by the JS handle box, the wakeup handle and the hook's userData, so whichever of them outlives the others
 * never touches freed memory (a signalled wakeup can still run after the handle box is gone).
 */
struct ClientPump {
    Svcpp_Client client{};
    napi_env env = nullptr;
    Wakeup *wakeup = nullptr;                   // open until Close (after the Drop that ends every hook call) closes it
    napi_async_context asyncContext = nullptr;  // the drain's callback scope (async_hooks, then microtasks and ticks)
    Napi::ObjectReference asyncResource;
    napi_async_cleanup_hook_handle teardownHook = nullptr;  // environment teardown closes the client (OnEnvTeardown)
    std::atomic<bool> scheduled{false};                     // the wakeup is signalled and its handler has not started
    bool closed = false;
    bool pumping = false;                   // inside Svcpp_Client_RunCallbacks
    bool releaseAfterPump = false;          // Drop from inside a callback: release when the pump returns
    bool refd = false;                      // Client_SetPumpRef: whether the pump keeps the event loop alive
    bool continuing = false;                // a batch left callbacks queued: the next one is scheduled (setImmediate)
    Napi::FunctionReference continueBatch;  // the setImmediate callback of this pump (holds a weak reference to it)
};
using PumpRef = std::shared_ptr<ClientPump>;

/**
 * The loop's async handle the SDK thread signals (uv_async_send: lock-free, never blocks, coalesces). Not a
 * thread-safe function: napi_call_threadsafe_function signals the loop while holding the function's mutex, so a JS
 * thread woken on the I/O thread's core ran into that mutex and slept again until the I/O thread got the core back
 * (docs/lobby-fanout.md: with the async handle the p90 of the hook-to-handler hop is a third shorter).
 */
struct Wakeup {
    uv_async_t async{};  // async.data = this
    PumpRef pump;        // the pump lives as long as the handle (until its close callback)
    napi_async_cleanup_hook_handle removeWhenClosed = nullptr;  // environment teardown waits for the close
};

struct ClientBox {
    PumpRef pump;
};

constexpr size_t kClientTag = HandleTraits<Svcpp_Client>::index;

uv_handle_t *AsHandle(Wakeup *wakeup) { return reinterpret_cast<uv_handle_t *>(&wakeup->async); }

/**
 * JS thread, once no SDK thread can fire the hook any more (the client is dropped): closes the wakeup handle, which is
 * freed by the loop after the close. `removeWhenClosed`: the environment's teardown hook, removed then.
 */
void CloseWakeup(ClientPump &pump, napi_async_cleanup_hook_handle removeWhenClosed = nullptr) {
    if (pump.asyncContext) napi_async_destroy(pump.env, std::exchange(pump.asyncContext, nullptr));
    pump.asyncResource.Reset();
    Wakeup *wakeup = std::exchange(pump.wakeup, nullptr);
    if (!wakeup) {
        if (removeWhenClosed) napi_remove_async_cleanup_hook(removeWhenClosed);
        return;
    }
    wakeup->removeWhenClosed = removeWhenClosed;
    uv_close(AsHandle(wakeup), [](uv_handle_t *handle) {
        auto *closed = static_cast<Wakeup *>(handle->data);
        if (closed->removeWhenClosed) napi_remove_async_cleanup_hook(closed->removeWhenClosed);
        delete closed;
    });
}

/**
 * Drop-then-close. Busy (another thread is pumping) leaves everything as it was. `teardown`: called by the
 * environment's teardown hook, which is removed once the wakeup handle has closed (the loop runs until then).
 */
Svcpp_Errc Close(ClientPump &pump, napi_async_cleanup_hook_handle teardown = nullptr) {
    if (pump.closed) return Svcpp_Client_Drop(&pump.client);  // zeroed: Ok, like any dropped handle
    Svcpp_Errc rc = Svcpp_Client_Drop(&pump.client);
    if (rc != Svcpp_Errc_Ok) {
        if (teardown) napi_remove_async_cleanup_hook(teardown);  // the handle stays open: the hook may still fire
        return rc;
    }
    pump.closed = true;
    pump.continueBatch.Reset();  // here, on the JS thread with the environment alive (not in ~ClientPump)
    if (!teardown && pump.teardownHook) napi_remove_async_cleanup_hook(pump.teardownHook);
    pump.teardownHook = nullptr;
    // Dropped inside one of its callbacks: the client's threads end when that pump returns, and the handle closes then.
    if (pump.pumping)
        pump.releaseAfterPump = true;
    else
        CloseWakeup(pump, teardown);
    return rc;
}

/** Environment teardown (process exit, worker termination): drop the live client, close its wakeup handle. */
void OnEnvTeardown(napi_async_cleanup_hook_handle hook, void *arg) {
    auto &pump = *static_cast<ClientPump *>(arg);
    pump.pumping = false;
    Close(pump, hook);
}

/**
 * Runs the queued callbacks (at most `max` of them when given). A pump JavaScript calls runs any number of callbacks
 * inside one JS call: each opens its own handle scope there (CallbacksShareScope(false)).
 */
Svcpp_Errc Pump(ClientPump &pump, std::optional<uint32_t> max = std::nullopt) {
    pump.pumping = true;
    Svcpp_Errc rc = max ? Svcpp_Client_RunCallbacksUpTo(&pump.client, *max) : Svcpp_Client_RunCallbacks(&pump.client);
    pump.pumping = false;
    if (pump.releaseAfterPump) {
        pump.releaseAfterPump = false;
        CloseWakeup(pump);
    }
    return rc;
}

/**
 * SDK thread: schedule one drain on the JS thread unless one is already scheduled. Never blocks. The hook only fires
 * while the client is registered, and the wakeup handle closes only after the Drop that ends the registration.
 */
void SVCPP_CALL OnCallbacksPending(void *userData) {
    ClientPump &pump = **static_cast<PumpRef *>(userData);
    if (!pump.scheduled.exchange(true)) uv_async_send(&pump.wakeup->async);
}

void SVCPP_CALL FreePumpRef(void *userData) { delete static_cast<PumpRef *>(userData); }

/**
 * Callbacks one turn of the event loop runs at most (native/SEMANTICS.md "Pump batches"). Bounded so timers, I/O and
 * other clients get their turn however many events arrived at once (≈ 1 µs per event: well under a millisecond per
 * turn); large enough that the turn's fixed cost (a setImmediate, a handle scope) is spread over many events.
 */
constexpr uint32_t kCallbacksPerTurn = 256;

void ScheduleNextBatch(ClientPump &pump, Napi::Env env);

/**
 * JS thread: one bounded batch in one handle scope; while callbacks stay queued (the hook does not fire for them),
 * the next batch runs on the next turn of the event loop.
 */
void RunBatch(ClientPump &pump, Napi::Env env) {
    {
        Napi::HandleScope scope(env);
        CallbacksShareScope share(true);
        Pump(pump, kCallbacksPerTurn);
        Napi::Value error = TakeCallbackError(env);
        // No JS caller to throw to: report like an event-listener error ('uncaughtException').
        if (!error.IsEmpty()) napi_fatal_exception(env, error);
    }
    if (!pump.closed && Svcpp_Client_HasPendingCallbacks(&pump.client)) ScheduleNextBatch(pump, env);
}

void ScheduleNextBatch(ClientPump &pump, Napi::Env env) {
    if (pump.continuing) return;
    Napi::HandleScope scope(env);
    Napi::Value immediate = Addon(env).setImmediate.Call({pump.continueBatch.Value()});
    // Like the wakeup handle: an unref'd pump does not keep the process alive for the rest of a drain either.
    if (!pump.refd && immediate.IsObject())
        immediate.As<Napi::Object>().Get("unref").As<Napi::Function>().Call(immediate, {});
    pump.continuing = true;
}

/**
 * JS thread: the wakeup's handler. It runs the batch inside a callback scope, as Node runs any callback from the loop:
 * promises the handlers settle continue (microtasks, process.nextTick) when it returns.
 */
void OnWakeup(uv_async_t *async) {
    ClientPump &pump = *static_cast<Wakeup *>(async->data)->pump;
    pump.scheduled.store(false);                 // before the pump starts: work queued meanwhile fires the hook again
    if (pump.closed || pump.continuing) return;  // a scheduled batch drains what woke us
    try {
        Napi::Env env(pump.env);
        Napi::HandleScope handles(env);
        napi_callback_scope scope;
        if (napi_open_callback_scope(env, pump.asyncResource.Value(), pump.asyncContext, &scope) != napi_ok) return;
        struct CloseScope {
            napi_env env;
            napi_callback_scope scope;
            ~CloseScope() { napi_close_callback_scope(env, scope); }
        } closeScope{env, scope};
        RunBatch(pump, env);
    } catch (...) {}
}

ClientPump &PumpOf(Napi::Env env, const Napi::Value &v) {
    return *static_cast<ClientBox *>(UnwrapTagged(env, v, kClientTag, "Client"))->pump;
}

}  // namespace

Napi::Object WrapClient(Napi::Env env, Svcpp_Client client) {
    auto pump = std::make_shared<ClientPump>();
    pump->client = client;
    pump->env = env;

    // The next-batch callback holds the pump weakly: a pending setImmediate neither keeps a dropped client alive nor
    // touches a freed one.
    pump->continueBatch = Napi::Persistent(Napi::Function::New(
        env,
        [weak = std::weak_ptr<ClientPump>(pump)](const Napi::CallbackInfo &info) {
            PumpRef live = weak.lock();
            if (!live) return;
            live->continuing = false;
            if (!live->closed) RunBatch(*live, info.Env());
        },
        "svcpp.Client.nextBatch"));

    uv_loop_t *loop = nullptr;
    if (napi_get_uv_event_loop(env, &loop) != napi_ok ||
        napi_async_init(env, nullptr, Napi::String::New(env, "svcpp.Client.pump"), &pump->asyncContext) != napi_ok) {
        Svcpp_Client_Drop(&pump->client);
        NAPI_THROW(Napi::Error::New(env, "svcpp: cannot create the client pump"), Napi::Object());
    }
    pump->asyncResource = Napi::Persistent(Napi::Object::New(env));
    auto *wakeup = new Wakeup{{}, pump, nullptr};
    wakeup->async.data = wakeup;
    if (uv_async_init(loop, &wakeup->async, OnWakeup) != 0) {
        delete wakeup;  // never initialised: nothing for the loop to close
        Svcpp_Client_Drop(&pump->client);
        CloseWakeup(*pump);
        NAPI_THROW(Napi::Error::New(env, "svcpp: cannot create the client pump"), Napi::Object());
    }
    uv_unref(AsHandle(wakeup));  // like any listener-less client: no hold on the loop (Client_SetPumpRef)
    pump->wakeup = wakeup;

    auto *hookData = new PumpRef(pump);
    Svcpp_Errc rc = Svcpp_Client_SetCallbacksPendingHook(&pump->client, OnCallbacksPending, FreePumpRef, hookData);
    if (rc != Svcpp_Errc_Ok) {
        delete hookData;  // a rejected triple is never taken
        Svcpp_Client_Drop(&pump->client);
        CloseWakeup(*pump);
        ThrowErrc(env, rc);
    }
    napi_add_async_cleanup_hook(env, OnEnvTeardown, pump.get(), &pump->teardownHook);

    auto *box = new ClientBox{pump};
    auto finalize = [](napi_env, void *data, void *) {
        auto *b = static_cast<ClientBox *>(data);
        Close(*b->pump);  // a client nobody closed: GC frees it
        delete b;
    };
    try {
        return WrapTagged(env, box, kClientTag, finalize);
    } catch (...) {
        Close(*pump);
        delete box;
        throw;
    }
}

Svcpp_Client *UnwrapClient(Napi::Env env, const Napi::Value &v) { return &PumpOf(env, v).client; }

Svcpp_Errc DropClient(Napi::Env env, const Napi::Value &v) { return Close(PumpOf(env, v)); }

Svcpp_Errc RunClientCallbacks(Napi::Env env, const Napi::Value &v, std::optional<uint32_t> max) {
    CallbacksShareScope share(false);
    return Pump(PumpOf(env, v), max);
}

void SetClientPumpRef(Napi::Env env, const Napi::Value &v, bool ref) {
    ClientPump &pump = PumpOf(env, v);
    if (!pump.wakeup) return;  // closed
    pump.refd = ref;
    if (ref)
        uv_ref(AsHandle(pump.wakeup));
    else
        uv_unref(AsHandle(pump.wakeup));
}

}  // namespace svcpp_node
