// JS functions registered through a C callback triple. userData is a heap JsCallback; the generated
// trampoline (one per callback typedef) converts the C arguments and calls it; FreeJsCallback is the
// triple's userDataFree. Callbacks only run inside a pump, i.e. on the JS thread of their environment.
#pragma once

#include <memory>

#include "addon.hpp"

namespace svcpp_node {

struct JsCallback {
  napi_env env;
  Napi::FunctionReference fn;
};

inline std::unique_ptr<JsCallback> NewJsCallback(Napi::Env env, const Napi::Function &fn) {
  return std::unique_ptr<JsCallback>(new JsCallback{env, Napi::Persistent(fn)});
}

/** userDataFree of every triple the addon passes. */
void SVCPP_CALL FreeJsCallback(void *userData);

/**
 * Calls the JS function of a registration with the arguments makeArgs builds. Never lets an exception
 * reach C: a JS exception is recorded and rethrown when the pump returns; if JS cannot run (a worker
 * terminating, napi_cannot_run_js) the call is skipped.
 */
template <class MakeArgs>
void InvokeJs(void *userData, MakeArgs makeArgs) noexcept {
  auto *cb = static_cast<JsCallback *>(userData);
  Napi::Env env(cb->env);
  tCrossingsAtCallbackStart = tCrossings;
  CountCrossing();
  try {
    Napi::HandleScope scope(env);
    std::vector<napi_value> args = makeArgs(env);
    cb->fn.Call(args);
  } catch (const Napi::Error &e) {
    try {
      RecordCallbackError(env, e.Value());
    } catch (...) {
    }
  } catch (...) {
  }
}

}  // namespace svcpp_node
