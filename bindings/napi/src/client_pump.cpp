#include "client_pump.hpp"

#include <atomic>
#include <memory>
#include <optional>

#include "callbacks.hpp"
#include "handles.hpp"

namespace svcpp_node {
namespace {

/**
 * Shared by the JS handle box, the TSFN context and the hook's userData, so whichever of them outlives
 * the others never touches freed memory (queued TSFN calls can still run after Release).
 */
struct ClientPump {
  Svcpp_Client client{};
  napi_env env = nullptr;
  napi_threadsafe_function tsfn = nullptr;
  std::atomic<bool> scheduled{false};  // a NonBlockingCall is queued and its handler has not started
  bool closed = false;
  bool pumping = false;               // inside Svcpp_Client_RunCallbacks
  bool releaseAfterPump = false;      // Drop from inside a callback: release when the pump returns
  bool refd = false;                  // Client_SetPumpRef: whether the pump keeps the event loop alive
  bool continuing = false;            // a batch left callbacks queued: the next one is scheduled (setImmediate)
  Napi::FunctionReference continueBatch;  // the setImmediate callback of this pump (holds a weak reference to it)
};
using PumpRef = std::shared_ptr<ClientPump>;

struct ClientBox {
  PumpRef pump;
};

constexpr size_t kClientTag = HandleTraits<Svcpp_Client>::index;

void ReleaseTsfn(ClientPump &pump) {
  if (!pump.tsfn) return;
  napi_release_threadsafe_function(pump.tsfn, napi_tsfn_release);
  pump.tsfn = nullptr;
}

void CleanupHook(void *arg);

/** Drop-then-release. Busy (another thread is pumping) leaves everything as it was. */
Svcpp_Errc Close(ClientPump &pump) {
  if (pump.closed) return Svcpp_Client_Drop(&pump.client);  // zeroed: Ok, like any dropped handle
  Svcpp_Errc rc = Svcpp_Client_Drop(&pump.client);
  if (rc != Svcpp_Errc_Ok) return rc;
  pump.closed = true;
  pump.continueBatch.Reset();  // here, on the JS thread with the environment alive (not in ~ClientPump)
  napi_remove_env_cleanup_hook(pump.env, CleanupHook, &pump);
  if (pump.pumping) pump.releaseAfterPump = true;
  else ReleaseTsfn(pump);
  return rc;
}

/** Environment teardown (process exit, worker termination): drop the live client. */
void CleanupHook(void *arg) {
  auto &pump = *static_cast<ClientPump *>(arg);
  pump.pumping = false;
  Close(pump);
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
    ReleaseTsfn(pump);
  }
  return rc;
}

/** SDK thread: schedule one drain on the JS thread unless one is already queued. Never blocks. */
void SVCPP_CALL OnCallbacksPending(void *userData) {
  ClientPump &pump = **static_cast<PumpRef *>(userData);
  if (!pump.scheduled.exchange(true)) napi_call_threadsafe_function(pump.tsfn, nullptr, napi_tsfn_nonblocking);
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
  // Like the TSFN: an unref'd pump does not keep the process alive for the rest of a drain either.
  if (!pump.refd && immediate.IsObject()) immediate.As<Napi::Object>().Get("unref").As<Napi::Function>().Call(immediate, {});
  pump.continuing = true;
}

/** JS thread: the TSFN handler. env is null while the environment tears down. */
void OnPumpCall(napi_env env, napi_value, void *context, void *) {
  if (env == nullptr) return;
  ClientPump &pump = **static_cast<PumpRef *>(context);
  pump.scheduled.store(false);  // before the pump starts: work queued meanwhile fires the hook again
  if (pump.closed || pump.continuing) return;  // a scheduled batch drains what woke us
  try {
    RunBatch(pump, Napi::Env(env));
  } catch (...) {
  }
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
  pump->continueBatch = Napi::Persistent(Napi::Function::New(env, [weak = std::weak_ptr<ClientPump>(pump)](const Napi::CallbackInfo &info) {
    PumpRef live = weak.lock();
    if (!live) return;
    live->continuing = false;
    if (!live->closed) RunBatch(*live, info.Env());
  }, "svcpp.Client.nextBatch"));

  auto *context = new PumpRef(pump);
  napi_status status = napi_create_threadsafe_function(
      env, nullptr, nullptr, Napi::String::New(env, "svcpp.Client.pump"), 0, 1, context,
      [](napi_env, void *data, void *) { delete static_cast<PumpRef *>(data); }, context, OnPumpCall,
      &pump->tsfn);
  if (status != napi_ok) {
    delete context;
    Svcpp_Client_Drop(&pump->client);
    NAPI_THROW(Napi::Error::New(env, "svcpp: cannot create the client pump"), Napi::Object());
  }
  napi_unref_threadsafe_function(env, pump->tsfn);

  auto *hookData = new PumpRef(pump);
  Svcpp_Errc rc = Svcpp_Client_SetCallbacksPendingHook(&pump->client, OnCallbacksPending, FreePumpRef, hookData);
  if (rc != Svcpp_Errc_Ok) {
    delete hookData;  // a rejected triple is never taken
    Svcpp_Client_Drop(&pump->client);
    ReleaseTsfn(*pump);
    ThrowErrc(env, rc);
  }
  napi_add_env_cleanup_hook(env, CleanupHook, pump.get());

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
  if (!pump.tsfn) return;  // closed
  pump.refd = ref;
  if (ref) napi_ref_threadsafe_function(env, pump.tsfn);
  else napi_unref_threadsafe_function(env, pump.tsfn);
}

}  // namespace svcpp_node
