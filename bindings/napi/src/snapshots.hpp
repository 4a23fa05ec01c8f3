// Helpers of the generated Snapshot entry points (bindings/napi/generated/functions.cpp, native/SEMANTICS.md
// "Snapshots"): nested objects and spans a getter hands over are read into plain JS values and dropped in the same
// call, also when a getter throws.
#pragma once

#include "addon.hpp"
#include "../generated/handle_traits.hpp"

namespace svcpp_node {

/**
 * Compiles the generated factories (`source`: a JS array expression of functions) once per environment. A snapshot
 * is then one call of its factory with the values read: an object literal in optimised JS gets the same hidden class
 * every time, where setting each key from C++ paid a key internalisation and a map transition per field.
 */
inline void InitSnapshotFactories(Napi::Env env, const char *source) {
  napi_value script = Napi::String::New(env, source);
  napi_value result;
  NAPI_THROW_IF_FAILED_VOID(env, napi_run_script(env, script, &result));
  Napi::Array factories(env, result);
  auto &out = Addon(env).snapshotFactories;
  out.clear();
  for (uint32_t i = 0; i < factories.Length(); ++i) out.push_back(Napi::Persistent(factories.Get(i).As<Napi::Function>()));
}

/** The factory of the index-th snapshot type. */
inline Napi::Function SnapshotFactory(Napi::Env env, size_t index) { return Addon(env).snapshotFactories[index].Value(); }

/** Drops `handle` (when not null) at scope exit. */
template <class H>
struct DropOnExit {
  H *handle;
  ~DropOnExit() {
    if (handle) HandleTraits<H>::Drop(handle);
  }
};

/** Drops every element of a result span and frees its buffer at scope exit. */
template <class H, class Span>
struct SpanDropOnExit {
  Span *span;
  ~SpanDropOnExit() {
    for (size_t i = 0; i < span->size; ++i) HandleTraits<H>::Drop(&span->ptr[i]);
    Svcpp_Free(span->ptr);
    *span = Span{};
  }
};

/** A JS array of the snapshots of a span's elements. */
template <class H, class Span>
Napi::Value SnapshotArray(Napi::Env env, const Span &span, Napi::Value (*snapshot)(Napi::Env, H *)) {
  Napi::Array out = Napi::Array::New(env, span.size);
  for (size_t i = 0; i < span.size; ++i) out.Set(static_cast<uint32_t>(i), snapshot(env, &span.ptr[i]));
  return out;
}

}  // namespace svcpp_node
