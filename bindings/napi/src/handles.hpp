// Handle objects: a JS object wrapping the caller-allocated C handle struct, type-tagged per handle type
// with a random per-load tag so a foreign or wrong-type object is rejected before napi_unwrap. Value
// handles are dropped by their finalizer when nobody dropped them explicitly (GC only frees memory).
#pragma once

#include "addon.hpp"
#include "../generated/handle_traits.hpp"

namespace svcpp_node {

[[noreturn]] void ThrowInvalidHandle(Napi::Env env, const char *expected);

/** Checks the type tag of v against handle type index `index` and returns the wrapped native pointer. */
void *UnwrapTagged(Napi::Env env, const Napi::Value &v, size_t index, const char *expected);

/** Wraps `data` in a new tagged JS object whose finalizer runs `finalize`. */
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

/** A JS-owned copy of an object borrowed for the duration of a callback (c-abi.md §10). */
template <class H>
Napi::Value CloneHandle(Napi::Env env, const H *borrowed) {
  H copy{};
  if (HandleTraits<H>::Clone(&copy, borrowed) != Svcpp_Errc_Ok) return env.Null();
  return WrapHandle<H>(env, copy);
}

template <class H>
Svcpp_Errc DropHandle(Napi::Env env, const Napi::Value &v) {
  return HandleTraits<H>::Drop(UnwrapHandle<H>(env, v));
}

}  // namespace svcpp_node
