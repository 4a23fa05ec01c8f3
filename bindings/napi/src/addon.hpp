// Shared declarations of the svcpp Node-API addon: per-environment state, error mapping and the
// JS <-> C conversions the generated glue (../generated) uses. The addon binds ONLY the C ABI (svcpp.h).
#pragma once

// One exception mode for the whole addon: C++ exceptions. Every napi failure and every misuse becomes a
// thrown Napi::Error that node-addon-api turns into a JS exception at the boundary; nothing below svcpp.h
// can throw through the C ABI, and trampolines catch everything before returning to C.
#if !defined(NODE_ADDON_API_CPP_EXCEPTIONS) && !defined(NAPI_CPP_EXCEPTIONS)
#define NODE_ADDON_API_CPP_EXCEPTIONS
#endif
#include <napi.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "../../../native/include/svcpp.h"
#include "handle_arena.hpp"

namespace svcpp_node {

/** State of one addon instance in one Node environment (main thread or worker). Never static. */
struct AddonData {
    AddonData() = default;
    AddonData(const AddonData &) = delete;
    AddonData &operator=(const AddonData &) = delete;
    ~AddonData() { handles->Release(); }

    /** The slots every handle external of this instance points to (handle_arena.hpp), checked before every unwrap. */
    HandleArena *handles = HandleArena::Create();
    /** (errc, detail) => Error, installed by the TypeScript loader so both backends throw SvcppError. */
    Napi::FunctionReference errorFactory;
    /** First exception a JS callback threw during the current pump; rethrown when the pump returns. */
    Napi::Reference<Napi::Value> callbackError;
    /** One function per object type building its snapshot object tree from the values read (snapshots.hpp). */
    std::vector<Napi::FunctionReference> snapshotBuilders;
    /** Takes a large snapshot's values ahead of its builder's call (SnapshotValues). */
    Napi::FunctionReference snapshotMore;
    /** One function per event with a payload: builds the payload and calls the registered function (snapshots.hpp). */
    std::vector<Napi::FunctionReference> payloadDeliverers;
    /** The environment's setImmediate: the client pump continues a drain on the next turn with it (client_pump.cpp). */
    Napi::FunctionReference setImmediate;
};

AddonData &Addon(Napi::Env env);

/** Stable JS error code of an Errc ("ERR_SVCPP_INVALID_HANDLE"); generated from the IDL. */
const char *ErrcCode(Svcpp_Errc rc);

/** Builds the JS error for a failed C call: detail defaults to Svcpp_GetLastErrorMessage. */
Napi::Value MakeErrcError(Napi::Env env, Svcpp_Errc rc, const std::string *detail = nullptr);

[[noreturn]] inline void ThrowErrc(Napi::Env env, Svcpp_Errc rc, const std::string *detail = nullptr) {
    throw Napi::Error(env, MakeErrcError(env, rc, detail));
}

inline void Check(Napi::Env env, Svcpp_Errc rc) {
    if (rc != Svcpp_Errc_Ok) ThrowErrc(env, rc);
}

// ---- crossings --------------------------------------------------------------------------------------

/**
 * A debug counter of JS <-> native crossings on this thread (every generated function call and every JS callback
 * the pump makes), read with Debug_CrossingCount: tests count crossings instead of timing them. One increment of a
 * thread-local integer (each JS thread, the main one or a worker, has its own).
 */
inline thread_local uint64_t tCrossings = 0;
/** tCrossings when the JS callback running now was entered (before its own crossing was counted). */
inline thread_local uint64_t tCrossingsAtCallbackStart = 0;
inline void CountCrossing() { ++tCrossings; }

// ---- callback errors --------------------------------------------------------------------------------

void RecordCallbackError(Napi::Env env, Napi::Value error);
/** Throws (as a JS exception) the error a callback recorded during the pump that just returned. */
void RethrowCallbackError(Napi::Env env);
/** The recorded error, cleared; empty when none. For the thread-safe-function pump (no JS caller). */
Napi::Value TakeCallbackError(Napi::Env env);

// ---- conversions ------------------------------------------------------------------------------------

inline bool IsNullish(const Napi::Value &v) { return v.IsUndefined() || v.IsNull(); }

inline std::string StringArg(const Napi::Value &v) {
    if (!v.IsString()) throw Napi::TypeError::New(v.Env(), "expected a string");
    return v.As<Napi::String>().Utf8Value();
}

/** A borrowed Svcpp_String view of a std::string (valid while the string lives). */
inline Svcpp_String View(const std::string &s) {
    return Svcpp_String{reinterpret_cast<uint8_t *>(const_cast<char *>(s.data())), s.size()};
}

/** True when every byte is ASCII (8 bytes at a time): such UTF-8 is also Latin-1. */
inline bool IsAscii(const uint8_t *p, size_t n) {
    uint64_t bits = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        std::memcpy(&word, p + i, 8);
        bits |= word;
    }
    for (; i < n; ++i) bits |= p[i];
    return (bits & 0x8080808080808080ULL) == 0;
}

/**
 * A JS string of a UTF-8 view. ASCII text (ids, names, URLs: nearly all of it) is created as Latin-1, which V8
 * copies as is, where the UTF-8 path validates and decodes it first: a measurable part of a short getter's cost.
 */
inline Napi::String BorrowString(Napi::Env env, Svcpp_String s) {
    const size_t size = s.ptr ? s.size : 0;
    const char *text = reinterpret_cast<const char *>(s.ptr);
    napi_value out;
    napi_status status = size != 0 && IsAscii(s.ptr, size) ? napi_create_string_latin1(env, text, size, &out)
                                                           : napi_create_string_utf8(env, text, size, &out);
    NAPI_THROW_IF_FAILED(env, status, Napi::String());
    return Napi::String(env, out);
}

/** Converts a library-allocated output string and frees it with Svcpp_Free (never our allocator). */
inline Napi::String TakeString(Napi::Env env, Svcpp_String &s) {
    struct Freer {
        Svcpp_String &s;
        ~Freer() { Svcpp_Free(s.ptr); }
    } freer{s};
    return BorrowString(env, s);
}

inline bool BoolArg(const Napi::Value &v) {
    if (!v.IsBoolean()) throw Napi::TypeError::New(v.Env(), "expected a boolean");
    return v.As<Napi::Boolean>().Value();
}

inline double NumberArg(const Napi::Value &v) {
    if (!v.IsNumber()) throw Napi::TypeError::New(v.Env(), "expected a number");
    return v.As<Napi::Number>().DoubleValue();
}

inline int32_t I32Arg(const Napi::Value &v) {
    NumberArg(v);
    return v.As<Napi::Number>().Int32Value();
}

inline uint32_t U32Arg(const Napi::Value &v) {
    NumberArg(v);
    return v.As<Napi::Number>().Uint32Value();
}

inline float F32Arg(const Napi::Value &v) { return static_cast<float>(NumberArg(v)); }

/** u64: a bigint (or a non-negative safe integer number) in [0, 2^64); anything else is InvalidArgument. */
uint64_t U64Arg(const Napi::Value &v);

inline Napi::Function FunctionArg(const Napi::Value &v) {
    if (!v.IsFunction()) throw Napi::TypeError::New(v.Env(), "expected a function");
    return v.As<Napi::Function>();
}

}  // namespace svcpp_node
