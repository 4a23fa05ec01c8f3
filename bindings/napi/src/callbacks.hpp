// JS functions registered through a C callback triple. userData is a heap JsCallback; the generated
// trampoline (one per callback typedef) converts the C arguments and calls it; FreeJsCallback is the
// triple's userDataFree. Callbacks only run inside a pump, i.e. on the JS thread of their environment.
#pragma once

#include <memory>
#include <optional>

#include "addon.hpp"

namespace svcpp_node {

struct JsCallback {
    napi_env env;
    Napi::FunctionReference fn;
    /**
     * The client that registered an event with a payload (idl/surface.mjs callbacks' `payload`): its trampoline reads
     * the payload from it. A copy of the handle, zeroed for other registrations: the registration ends before (or when)
     * the client is dropped, and a stale copy is refused by the registry anyway, never dereferenced.
     */
    Svcpp_Client client{};
};

inline std::unique_ptr<JsCallback> NewJsCallback(Napi::Env env, const Napi::Function &fn, Svcpp_Client client = {}) {
    return std::unique_ptr<JsCallback>(new JsCallback{env, Napi::Persistent(fn), client});
}

/** userDataFree of every triple the addon passes. */
void SVCPP_CALL FreeJsCallback(void *userData);

/**
 * True while the callbacks the pump runs on this thread share a HandleScope the pump opened for a bounded batch
 * (client_pump.cpp): each one then saves a scope of its own (a heap allocation in Node's napi_open_handle_scope).
 * Elsewhere — a pump JavaScript called, which may run any number of callbacks inside one JS call — each callback opens
 * its own scope, so what it created can be collected as soon as it returns.
 */
inline thread_local bool tCallbacksShareScope = false;

/** Sets tCallbacksShareScope for its lifetime and restores the previous value (pumps nest across clients). */
class CallbacksShareScope {
  public:
    explicit CallbacksShareScope(bool share) : previous_(tCallbacksShareScope) { tCallbacksShareScope = share; }
    ~CallbacksShareScope() { tCallbacksShareScope = previous_; }
    CallbacksShareScope(const CallbacksShareScope &) = delete;
    CallbacksShareScope &operator=(const CallbacksShareScope &) = delete;

  private:
    bool previous_;
};

/**
 * Runs `call(env, registration)`, the one call into JS of a callback's delivery, counted as one crossing. Never lets
 * an exception reach C: a JS exception is recorded and rethrown when the pump returns; if JS cannot run (a worker
 * terminating, napi_cannot_run_js) the call is skipped.
 */
template <class Call>
void GuardJsCallback(void *userData, Call call) noexcept {
    auto *cb = static_cast<JsCallback *>(userData);
    Napi::Env env(cb->env);
    tCrossingsAtCallbackStart = tCrossings;
    CountCrossing();
    try {
        std::optional<Napi::HandleScope> scope;
        if (!tCallbacksShareScope) scope.emplace(env);
        call(env, *cb);
    } catch (const Napi::Error &e) {
        try {
            RecordCallbackError(env, e.Value());
        } catch (...) {}
    } catch (...) {}
}

/**
 * Calls the JS function of a registration with the N arguments fillArgs(env, registration, args) writes into a
 * fixed array (no allocation per event).
 */
template <size_t N, class FillArgs>
void InvokeJs(void *userData, FillArgs fillArgs) noexcept {
    GuardJsCallback(userData, [&](Napi::Env env, JsCallback &cb) {
        napi_value args[N > 0 ? N : 1];
        fillArgs(env, cb, args);
        // Function::Call, not FunctionReference::Call: the latter opens an EscapableHandleScope per call.
        cb.fn.Value().Call(env.Undefined(), N, args);
    });
}

}  // namespace svcpp_node
