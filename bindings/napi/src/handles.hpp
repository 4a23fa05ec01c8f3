// Handle objects: a napi external holding the caller-allocated C handle struct, through a slot of the instance's
// HandleArena that names its handle type, so a foreign or wrong-type value is rejected before its pointer is read.
// Value handles are dropped by their finalizer when nobody dropped them explicitly (GC only frees memory).
#pragma once

#include "addon.hpp"
#include "../generated/handle_traits.hpp"

namespace svcpp_node {

[[noreturn]] void ThrowInvalidHandle(Napi::Env env, const char *expected);

/** Checks that v is a handle external of type index `index` (its arena slot) and returns the wrapped native pointer. */
void *UnwrapTagged(Napi::Env env, const Napi::Value &v, size_t index, const char *expected);

/** Wraps `data` in a new handle external of type index `index` whose finalizer runs `finalize`. */
Napi::Object WrapTagged(Napi::Env env, void *data, size_t index, napi_finalize finalize);

template <class H>
struct HandleBox {
    H handle{};
};

template <class H>
Napi::Object WrapHandle(Napi::Env env, H handle) {
    auto *box = new HandleBox<H>{handle};
    auto finalize = [](napi_env, void *data, void *) {
        auto *b = static_cast<HandleBox<H> *>(data);
        HandleTraits<H>::Drop(&b->handle);  // Ok on a zeroed (explicitly dropped) handle
        delete b;
    };
    try {
        return WrapTagged(env, box, HandleTraits<H>::index, finalize);
    } catch (...) {
        HandleTraits<H>::Drop(&box->handle);
        delete box;
        throw;
    }
}

template <class H>
H *UnwrapHandle(Napi::Env env, const Napi::Value &v) {
    return &static_cast<HandleBox<H> *>(UnwrapTagged(env, v, HandleTraits<H>::index, HandleTraits<H>::name))->handle;
}

/** A JS-owned copy of an object borrowed for the duration of a callback (native/SEMANTICS.md "Callbacks"). */
template <class H>
Napi::Value CloneHandle(Napi::Env env, const H *borrowed) {
    H copy{};
    if (HandleTraits<H>::Clone(&copy, borrowed) != Svcpp_Errc_Ok) return env.Null();
    return WrapHandle<H>(env, copy);
}

/** A JS array of JS-owned copies of the elements of a span borrowed for the duration of a callback. */
template <class H, class Span>
Napi::Value CloneSpan(Napi::Env env, const Span &borrowed) {
    Napi::Array copies = Napi::Array::New(env, borrowed.size);
    for (size_t i = 0; i < borrowed.size; ++i)
        copies.Set(static_cast<uint32_t>(i), CloneHandle<H>(env, &borrowed.ptr[i]));
    return copies;
}

/**
 * Adopts the elements of a result span as JS handles (each dropped by its own Drop or finalizer) and frees the
 * buffer with Svcpp_Free. An element not wrapped yet when something throws is dropped here.
 */
template <class H, class Span>
Napi::Value AdoptSpan(Napi::Env env, Span &owned) {
    size_t next = 0;  // elements before `next` belong to JS objects (or were dropped by WrapHandle's own failure)
    try {
        Napi::Array adopted = Napi::Array::New(env, owned.size);
        while (next < owned.size) {
            Napi::Object handle = WrapHandle<H>(env, owned.ptr[next++]);
            adopted.Set(static_cast<uint32_t>(next - 1), handle);
        }
        Svcpp_Free(owned.ptr);
        owned = Span{};
        return adopted;
    } catch (...) {
        for (size_t i = next; i < owned.size; ++i) HandleTraits<H>::Drop(&owned.ptr[i]);
        Svcpp_Free(owned.ptr);
        owned = Span{};
        throw;
    }
}

template <class H>
Svcpp_Errc DropHandle(Napi::Env env, const Napi::Value &v) {
    return HandleTraits<H>::Drop(UnwrapHandle<H>(env, v));
}

}  // namespace svcpp_node
