// Module entry: per-environment instance data, the hand-declared exports (library globals, the pump's
// ref switch, the error factory) and the generated ones (../generated/functions.cpp).
#include "callbacks.hpp"
#include "client_pump.hpp"
#include "handles.hpp"

namespace svcpp_node {

void RegisterGenerated(Napi::Env env, Napi::Object exports);    // generated/functions.cpp
void RegisterAudioStream(Napi::Env env, Napi::Object exports);  // audio_stream.cpp

AddonData &Addon(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }

// ---- errors -------------------------------------------------------------------------------------------

Napi::Value MakeErrcError(Napi::Env env, Svcpp_Errc rc, const std::string *detail) {
    std::string message;
    if (detail) {
        message = *detail;
    } else {
        Svcpp_String out{};
        if (Svcpp_GetLastErrorMessage(&out) == Svcpp_Errc_Ok) {
            message.assign(reinterpret_cast<const char *>(out.ptr), out.ptr ? out.size : 0);
            Svcpp_Free(out.ptr);
        }
    }
    AddonData &addon = Addon(env);
    if (!addon.errorFactory.IsEmpty()) {
        return addon.errorFactory.Call({Napi::Number::New(env, rc), Napi::String::New(env, message)});
    }
    Napi::Error error = Napi::Error::New(env, message.empty() ? ErrcCode(rc) : message);
    error.Set("code", Napi::String::New(env, ErrcCode(rc)));
    return error.Value();
}

void RecordCallbackError(Napi::Env env, Napi::Value error) {
    AddonData &addon = Addon(env);
    if (addon.callbackError.IsEmpty()) addon.callbackError = Napi::Persistent(error);
}

Napi::Value TakeCallbackError(Napi::Env env) {
    AddonData &addon = Addon(env);
    if (addon.callbackError.IsEmpty()) return Napi::Value();
    Napi::Value error = addon.callbackError.Value();
    addon.callbackError.Reset();
    return error;
}

void RethrowCallbackError(Napi::Env env) {
    Napi::Value error = TakeCallbackError(env);
    if (!error.IsEmpty()) throw Napi::Error(env, error);
}

void SVCPP_CALL FreeJsCallback(void *userData) { delete static_cast<JsCallback *>(userData); }

// ---- conversions --------------------------------------------------------------------------------------

uint64_t U64Arg(const Napi::Value &v) {
    Napi::Env env = v.Env();
    if (v.IsBigInt()) {
        bool lossless = false;
        uint64_t value = v.As<Napi::BigInt>().Uint64Value(&lossless);
        if (lossless) return value;
    } else if (v.IsNumber()) {
        double d = v.As<Napi::Number>().DoubleValue();
        if (d >= 0 && d <= 9007199254740991.0 && d == static_cast<double>(static_cast<uint64_t>(d))) {
            return static_cast<uint64_t>(d);
        }
    }
    std::string detail = "expected a bigint in [0, 2^64)";
    ThrowErrc(env, Svcpp_Errc_InvalidArgument, &detail);
}

// ---- handles ------------------------------------------------------------------------------------------

void ThrowInvalidHandle(Napi::Env env, const char *expected) {
    std::string detail = std::string("expected a ") + expected + " handle of the napi backend";
    ThrowErrc(env, Svcpp_Errc_InvalidHandle, &detail);
}

// A handle is a napi external (not an object with napi_wrap, whose unwrap is two private-property lookups per call)
// pointing to a slot of this instance's HandleArena: reading the pointer is a field read inside Node, and the arena
// refuses a foreign or wrong-type external before anything it points to is read (handle_arena.hpp).
void *UnwrapTagged(Napi::Env env, const Napi::Value &v, size_t index, const char *expected) {
    void *slot = nullptr;
    if (napi_get_value_external(env, v, &slot) != napi_ok) ThrowInvalidHandle(env, expected);
    void *data = Addon(env).handles->Find(slot, static_cast<uint32_t>(index));
    if (!data) ThrowInvalidHandle(env, expected);
    return data;
}

Napi::Object WrapTagged(Napi::Env env, void *data, size_t index, napi_finalize finalize) {
    HandleArena *arena = Addon(env).handles;
    void *slot = arena->Allocate(static_cast<uint32_t>(index), data, finalize);
    napi_value external = nullptr;
    if (napi_status status = napi_create_external(env, slot, HandleArena::Finalize, arena, &external);
        status != napi_ok) {
        arena->Abandon(slot);  // the caller still owns data and frees it
        NAPI_THROW_IF_FAILED(env, status, Napi::Object());
    }
    return Napi::Object(env, external);
}

// ---- hand-declared exports ----------------------------------------------------------------------------

namespace {

Napi::Value GetAbiVersion(const Napi::CallbackInfo &info) {
    return Napi::Number::New(info.Env(), Svcpp_GetAbiVersion());
}

Napi::Value CheckAbiVersion(const Napi::CallbackInfo &info) {
    Check(info.Env(), Svcpp_CheckAbiVersion(U32Arg(info[0])));
    return info.Env().Undefined();
}

Napi::Value GetLastErrorMessage(const Napi::CallbackInfo &info) {
    Svcpp_String out{};
    Check(info.Env(), Svcpp_GetLastErrorMessage(&out));
    return TakeString(info.Env(), out);
}

/** The crossing counters of this thread (not counted themselves): { total, atCallbackStart }. */
Napi::Value DebugCrossings(const Napi::CallbackInfo &info) {
    Napi::Object counters = Napi::Object::New(info.Env());
    counters.Set("total", Napi::BigInt::New(info.Env(), tCrossings));
    counters.Set("atCallbackStart", Napi::BigInt::New(info.Env(), tCrossingsAtCallbackStart));
    return counters;
}

Napi::Value RunCallbacks(const Napi::CallbackInfo &info) {
    Svcpp_Errc rc = Svcpp_RunCallbacks();
    RethrowCallbackError(info.Env());
    Check(info.Env(), rc);
    return info.Env().Undefined();
}

Napi::Value ResetCallbacks(const Napi::CallbackInfo &info) {
    Svcpp_Errc rc = Svcpp_ResetCallbacks();
    RethrowCallbackError(info.Env());
    Check(info.Env(), rc);
    return info.Env().Undefined();
}

Napi::Value ClientSetPumpRef(const Napi::CallbackInfo &info) {
    SetClientPumpRef(info.Env(), info[0], BoolArg(info[1]));
    return info.Env().Undefined();
}

/** setErrorFactory((errc, detail) => Error): lets the TS face throw its SvcppError from both backends. */
Napi::Value SetErrorFactory(const Napi::CallbackInfo &info) {
    Addon(info.Env()).errorFactory = Napi::Persistent(FunctionArg(info[0]));
    return info.Env().Undefined();
}

}  // namespace

Napi::Object Init(Napi::Env env, Napi::Object exports) {
    auto *addon = new AddonData();
    env.SetInstanceData(addon);  // deleted by node-addon-api when the environment goes away
    addon->setImmediate = Napi::Persistent(env.Global().Get("setImmediate").As<Napi::Function>());

    exports.Set("GetAbiVersion", Napi::Function::New(env, GetAbiVersion, "GetAbiVersion"));
    exports.Set("CheckAbiVersion", Napi::Function::New(env, CheckAbiVersion, "CheckAbiVersion"));
    exports.Set("GetLastErrorMessage", Napi::Function::New(env, GetLastErrorMessage, "GetLastErrorMessage"));
    exports.Set("RunCallbacks", Napi::Function::New(env, RunCallbacks, "RunCallbacks"));
    exports.Set("Debug_Crossings", Napi::Function::New(env, DebugCrossings, "Debug_Crossings"));
    exports.Set("ResetCallbacks", Napi::Function::New(env, ResetCallbacks, "ResetCallbacks"));
    exports.Set("Client_SetPumpRef", Napi::Function::New(env, ClientSetPumpRef, "Client_SetPumpRef"));
    exports.Set("setErrorFactory", Napi::Function::New(env, SetErrorFactory, "setErrorFactory"));
    RegisterGenerated(env, exports);
    RegisterAudioStream(env, exports);
    return exports;
}

}  // namespace svcpp_node

// Context-aware (NAPI_MODULE_INIT under the hood): Init runs once per environment, so workers get their own AddonData.
static Napi::Object InitSvcppAddon(Napi::Env env, Napi::Object exports) { return svcpp_node::Init(env, exports); }
NODE_API_MODULE(svcpp_node, InitSvcppAddon)
