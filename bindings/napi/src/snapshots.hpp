// Helpers of the generated Snapshot entry points (bindings/napi/generated/functions.cpp, native/SEMANTICS.md
// "Snapshots"): a snapshot is one call of the C snapshot entry point (Svcpp_<T>_WriteSnapshot, or a lookup's) into
// a per-thread buffer, then the packed layout read into plain JS values by the generated ReadSnapshot_<T>.
#pragma once

#include <cstring>
#include <vector>

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

/**
 * Reads the packed snapshot layout (native/SEMANTICS.md "Snapshots": little-endian numbers aligned to their size from
 * the buffer's start, strings as a u32 byte count and the UTF-8 bytes) into JS values. The C writer produced the
 * bytes in this same call, so they are trusted: no bounds checks beyond what the layout itself says.
 */
class SnapshotReader {
 public:
  SnapshotReader(Napi::Env env, const uint8_t *data) : env_(env), data_(data) {}

  bool Bool() { return data_[pos_++] != 0; }
  /** The presence byte of an optional value. */
  bool Present() { return Bool(); }
  int32_t I32() { return Scalar<int32_t>(); }
  uint32_t U32() { return Scalar<uint32_t>(); }
  uint64_t U64() { return Scalar<uint64_t>(); }
  float F32() { return Scalar<float>(); }

  napi_value Boolean(bool v) { return Napi::Boolean::New(env_, v); }
  napi_value Number(double v) { return Napi::Number::New(env_, v); }
  napi_value BigInt(uint64_t v) { return Napi::BigInt::New(env_, v); }

  napi_value String() {
    const uint32_t size = U32();
    Svcpp_String view{const_cast<uint8_t *>(data_ + pos_), size};  // read only: BorrowString copies
    pos_ += size;
    return BorrowString(env_, view);
  }

  /** A map: a plain object of strings (entries defined, so a "__proto__" key stays an entry). */
  napi_value Properties() {
    const uint32_t count = U32();
    Napi::Object object = Napi::Object::New(env_);
    for (uint32_t i = 0; i < count; ++i) {
      Napi::Value key(env_, String());
      Napi::Value value(env_, String());
      object.DefineProperty(Napi::PropertyDescriptor::Value(key, value, napi_default_jsproperty));
    }
    return object;
  }

  napi_value U64List() {
    const uint32_t count = U32();
    Napi::Array array = Napi::Array::New(env_, count);
    for (uint32_t i = 0; i < count; ++i) array.Set(i, Napi::BigInt::New(env_, U64()));
    return array;
  }

  /** A list of objects, each read by `read`. */
  napi_value List(napi_value (*read)(Napi::Env, SnapshotReader &)) {
    const uint32_t count = U32();
    Napi::Array array = Napi::Array::New(env_, count);
    for (uint32_t i = 0; i < count; ++i) array.Set(i, Napi::Value(env_, read(env_, *this)));
    return array;
  }

 private:
  template <class T>
  T Scalar() {
    pos_ = (pos_ + sizeof(T) - 1) & ~(sizeof(T) - 1);
    T v;
    std::memcpy(&v, data_ + pos_, sizeof(T));  // little-endian hosts only, like the writer
    pos_ += sizeof(T);
    return v;
  }

  Napi::Env env_;
  const uint8_t *data_;
  size_t pos_ = 0;
};

/** What an empty or refused C snapshot means: an object's is an error; a lookup's, nothing found. */
enum class SnapshotKind { Object, Lookup };

/**
 * Runs a C snapshot entry point `write(buffer, capacity, &size)` into this thread's buffer (grown and called again
 * when the snapshot did not fit) and reads it with `read` (a generated ReadSnapshot_<T>). An object's C error is
 * thrown as ERR_SVCPP_*. A lookup answers undefined when it found nothing (size 0) or its client is dropped or
 * zeroed (InvalidHandle: the lookup itself answers "not found" then). A nested use (never expected: a read calls only
 * the snapshot factories) gets a buffer of its own instead of overwriting the one being read.
 */
template <class Write>
Napi::Value ReadCSnapshot(Napi::Env env, SnapshotKind kind, Write write, napi_value (*read)(Napi::Env, SnapshotReader &)) {
  thread_local std::vector<uint8_t> shared(4096);
  thread_local bool inUse = false;
  std::vector<uint8_t> own(inUse ? 4096 : 0);
  std::vector<uint8_t> &buffer = inUse ? own : shared;
  size_t size = 0;
  Svcpp_Errc rc = write(buffer.data(), buffer.size(), &size);
  // Too small: grow to the size it asked for and call again (again if the object grew in between).
  for (int attempt = 0; rc == Svcpp_Errc_Ok && size > buffer.size() && attempt < 3; ++attempt) {
    buffer.resize(size);
    rc = write(buffer.data(), buffer.size(), &size);
  }
  if (kind == SnapshotKind::Lookup && (rc == Svcpp_Errc_InvalidHandle || (rc == Svcpp_Errc_Ok && size == 0))) return env.Undefined();
  Check(env, rc);
  if (size > buffer.size()) ThrowErrc(env, Svcpp_Errc_Internal);  // kept growing between calls
  struct InUse {
    bool &flag;
    bool previous;
    ~InUse() { flag = previous; }
  } restore{inUse, inUse};
  inUse = true;
  SnapshotReader reader(env, buffer.data());
  return Napi::Value(env, read(env, reader));
}

/** Drops `handle` (when not null) at scope exit. */
template <class H>
struct DropOnExit {
  H *handle;
  ~DropOnExit() {
    if (handle) HandleTraits<H>::Drop(handle);
  }
};

}  // namespace svcpp_node
