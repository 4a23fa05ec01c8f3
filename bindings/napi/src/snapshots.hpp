// Helpers of the generated Snapshot entry points (bindings/napi/generated/functions.cpp, native/SEMANTICS.md
// "Snapshots"): a snapshot is one call of the C snapshot entry point (Svcpp_<T>_WriteSnapshot, or a lookup's) into
// a per-thread buffer, then the packed layout read into JS values (the generated Flatten_<T>) and the object tree built
// from them by one call of the type's generated JS builder (ReadSnapshot_<T>).
#pragma once

#include <cstring>
#include <vector>

#include "addon.hpp"
#include "callbacks.hpp"
#include "../generated/handle_traits.hpp"

namespace svcpp_node {

/**
 * Compiles the generated builders (`source`: a JS expression answering `[builders, more, deliverers]`, see
 * SnapshotValues and InvokeJsWithPayload) once per environment.
 */
inline void InitSnapshotBuilders(Napi::Env env, const char *source) {
    napi_value script = Napi::String::New(env, source);
    napi_value result;
    NAPI_THROW_IF_FAILED_VOID(env, napi_run_script(env, script, &result));
    Napi::Array answer(env, result);
    const auto functions = [](Napi::Value array) {
        Napi::Array list = array.As<Napi::Array>();
        std::vector<Napi::FunctionReference> out;
        for (uint32_t i = 0; i < list.Length(); ++i) out.push_back(Napi::Persistent(list.Get(i).As<Napi::Function>()));
        return out;
    };
    auto &addon = Addon(env);
    addon.snapshotBuilders = functions(answer.Get(0u));
    addon.snapshotMore = Napi::Persistent(answer.Get(1u).As<Napi::Function>());
    addon.payloadDeliverers = functions(answer.Get(2u));
}

class SnapshotReader;

/**
 * The JS values of one snapshot, its nested objects' and lists' inline (a list: its count, then its items; an optional
 * object: a presence flag, then its values), handed to the type's generated builder in one call, which builds the
 * whole object tree in JS. Each nested object or list built from C++ instead cost a call into JS or an array filled
 * element by element through Node-API, the most expensive part of a snapshot's read. A large snapshot (a long list)
 * goes to JS in chunks of kChunk arguments (the builders' `more`), so no call needs an unbounded argument list. The
 * chunks wait in JS for the next builder call: nothing but the pure `more` runs in JS between them and it, and a
 * snapshot can only stop halfway (a Node-API call failing) once the environment runs no more JS (a worker terminating).
 */
class SnapshotValues {
  public:
    /** Runs `flatten(values)` (a generated Flatten_<T>), then the index-th builder on the values pushed. */
    template <class Flatten>
    static napi_value Build(Napi::Env env, size_t index, Flatten flatten) {
        SnapshotValues values(env);
        flatten(values);
        return values.Finish(values.addon_.snapshotBuilders[index].Value());
    }

    /** Pushes `first`, runs `fill(values)`, then calls the index-th payload deliverer on the values pushed. */
    template <class Fill>
    static void Deliver(Napi::Env env, size_t index, napi_value first, Fill fill) {
        SnapshotValues values(env);
        values.Push(first);
        fill(values);
        values.Finish(values.addon_.payloadDeliverers[index].Value());
    }

    void Push(napi_value value) {
        if (count_ == kChunk) Flush();
        values_[count_++] = value;
    }
    /** Pushes an optional object's presence flag; true when its values follow. */
    bool PushPresence(bool present) {
        Push(present ? true_ : false_);
        return present;
    }
    napi_value Undefined() const { return undefined_; }

    /** A list of objects: its count, then each one's values (`flatten`: a generated Flatten_<T>). */
    void List(SnapshotReader &r, void (*flatten)(SnapshotReader &, SnapshotValues &));

  private:
    static constexpr size_t kChunk = 256;

    explicit SnapshotValues(Napi::Env env) : env_(env), addon_(Addon(env)) {
        napi_get_undefined(env, &undefined_);
        napi_get_boolean(env, true, &true_);
        napi_get_boolean(env, false, &false_);
    }

    void Flush() {
        napi_value ignored;
        NAPI_THROW_IF_FAILED_VOID(
            env_, napi_call_function(env_, undefined_, addon_.snapshotMore.Value(), count_, values_, &ignored));
        count_ = 0;
    }

    napi_value Finish(napi_value builder) {
        napi_value built;
        NAPI_THROW_IF_FAILED(env_, napi_call_function(env_, undefined_, builder, count_, values_, &built), nullptr);
        return built;
    }

    Napi::Env env_;
    AddonData &addon_;
    napi_value undefined_, true_, false_;
    napi_value values_[kChunk];
    size_t count_ = 0;
};

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
    /** Integers as integers: cheaper to make than a double that V8 then finds to be a small integer. */
    napi_value Int32(int32_t v) {
        napi_value out;
        NAPI_THROW_IF_FAILED(env_, napi_create_int32(env_, v, &out), nullptr);
        return out;
    }
    napi_value Uint32(uint32_t v) {
        napi_value out;
        NAPI_THROW_IF_FAILED(env_, napi_create_uint32(env_, v, &out), nullptr);
        return out;
    }
    napi_value BigInt(uint64_t v) { return Napi::BigInt::New(env_, v); }

    napi_value String() {
        const uint32_t size = U32();
        if (size == 0) return Empty();                                 // many fields are empty: one "" per snapshot
        Svcpp_String view{const_cast<uint8_t *>(data_ + pos_), size};  // read only: BorrowString copies
        pos_ += size;
        return BorrowString(env_, view);
    }

    /** A map: its entry count, then each key and value (the builder makes a plain object of them). */
    void Properties(SnapshotValues &v) {
        const uint32_t count = U32();
        v.Push(Uint32(count));
        for (uint32_t i = 0; i < 2 * count; ++i) v.Push(String());
    }

    /** A list of ids: its count, then each id. */
    void U64List(SnapshotValues &v) {
        const uint32_t count = U32();
        v.Push(Uint32(count));
        for (uint32_t i = 0; i < count; ++i) v.Push(BigInt(U64()));
    }

  private:
    napi_value Empty() {
        if (!empty_) NAPI_THROW_IF_FAILED(env_, napi_create_string_latin1(env_, "", 0, &empty_), nullptr);
        return empty_;
    }

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
    napi_value empty_ = nullptr;
};

inline void SnapshotValues::List(SnapshotReader &r, void (*flatten)(SnapshotReader &, SnapshotValues &)) {
    const uint32_t count = r.U32();
    Push(r.Uint32(count));
    for (uint32_t i = 0; i < count; ++i) flatten(r, *this);
}

/** What an empty or refused C snapshot means: an object's is an error; a lookup's, nothing found. */
enum class SnapshotKind { Object, Lookup };

/**
 * Runs a C snapshot entry point `write(buffer, capacity, &size)` into this thread's buffer (grown and called again
 * when the snapshot did not fit) and reads it with `read` (a generated ReadSnapshot_<T>). An object's C error is
 * thrown as ERR_SVCPP_*. A lookup answers undefined when it found nothing (size 0) or its client is dropped or
 * zeroed (InvalidHandle: the lookup itself answers "not found" then). A nested use (never expected: a read calls only
 * the snapshot builders) gets a buffer of its own instead of overwriting the one being read.
 */
template <class Write, class Read>
Napi::Value ReadCSnapshot(Napi::Env env, SnapshotKind kind, Write write, Read read) {
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
    if (kind == SnapshotKind::Lookup && (rc == Svcpp_Errc_InvalidHandle || (rc == Svcpp_Errc_Ok && size == 0)))
        return env.Undefined();
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

/**
 * The delivery of an event with a payload (idl/surface.mjs callbacks' `payload`): the registered JS function, the
 * event's arguments and its payload's values (none when the lookup found nothing) go to the event's generated JS
 * deliverer, which builds the payload and calls the function — one call into JS per event, where building the payload
 * first and then calling the function took two.
 */
template <class Fill>
void InvokeJsWithPayload(void *userData, size_t deliverer, Fill fill) noexcept {
    GuardJsCallback(userData, [&](Napi::Env env, JsCallback &cb) {
        SnapshotValues::Deliver(env, deliverer, cb.fn.Value(), [&](SnapshotValues &values) { fill(env, cb, values); });
    });
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
