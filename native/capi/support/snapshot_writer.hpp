// The packed snapshot layout the generated Svcpp_<T>_WriteSnapshot entry points write (native/capi/generated/
// Snapshots.cpp, tools/gen/c_snapshots.mjs; the layout is documented in native/SEMANTICS.md "Snapshots").
//
// Marshalling only: the generated code calls the public C getters and appends what they answer here, so every
// value and every error of a snapshot is exactly the getter's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "support/guard.hpp"
#include "svcpp.h"

namespace svcpp::capi {

static_assert(sizeof(float) == 4 && sizeof(double) == 8, "the snapshot layout stores IEEE 754 binary32");

/**
 * Appends fields in the layout's order. Numbers are little-endian and aligned to their size from the start of the
 * buffer (the reader then reads them through typed-array views instead of assembling bytes), strings are a u32 byte
 * count then the UTF-8 bytes. Past the capacity it keeps counting without writing: Size() is then what the whole
 * snapshot needs, and the caller calls again with a buffer that large.
 */
class SnapshotWriter {
  public:
    SnapshotWriter(uint8_t *buffer, size_t capacity) : buffer_(buffer), capacity_(buffer ? capacity : 0) {}

    size_t Size() const { return size_; }

    void Bool(bool v) { Byte(v ? 1 : 0); }
    /** The presence byte before an optional value: 1 present, 0 absent (nothing follows). */
    void Present(bool present) { Byte(present ? 1 : 0); }
    void I32(int32_t v) { Scalar(v); }
    void U32(uint32_t v) { Scalar(v); }
    void U64(uint64_t v) { Scalar(v); }
    void F32(float v) { Scalar(v); }
    /** Element count of a list or map (u32: a snapshot never holds 4 G elements). */
    void Count(size_t n) { U32(static_cast<uint32_t>(n)); }

    void String(const uint8_t *ptr, size_t size) {
        Count(size);
        Bytes(ptr, size);
    }
    void CString(const char *s) { String(reinterpret_cast<const uint8_t *>(s), s ? std::strlen(s) : 0); }

    /** Appends a library-allocated output string and frees it. */
    void TakeString(Svcpp_String &s) {
        String(s.ptr, s.size);
        Svcpp_Free(s.ptr);
        s = {};
    }

    /** Appends a library-allocated map (count, then key and value per entry, sorted as the getter sorts) and frees it.
     */
    void TakeProperties(Svcpp_Properties &props) {
        Count(props.size);
        for (size_t i = 0; i < props.size; ++i) {
            String(props.keys[i].ptr, props.keys[i].size);
            String(props.values[i].ptr, props.values[i].size);
        }
        Svcpp_FreeProperties(props);
        props = {};
    }

    /** Appends a library-allocated id list (count, then each id) and frees its buffer. */
    void TakeU64Span(Svcpp_UInt64Span &span) {
        Count(span.size);
        for (size_t i = 0; i < span.size; ++i) U64(span.ptr[i]);
        Svcpp_Free(span.ptr);
        span = {};
    }

  private:
    void Byte(uint8_t v) { Bytes(&v, 1); }

    template <class T>
    void Scalar(T v) {
        static_assert(sizeof(T) == 4 || sizeof(T) == 8);
        const size_t aligned = (size_ + sizeof(T) - 1) & ~(sizeof(T) - 1);
        // Padding bytes are zeroed, so a snapshot's bytes depend on its values only.
        if (aligned + sizeof(T) <= capacity_) std::memset(buffer_ + size_, 0, aligned - size_);
        size_ = aligned;
        Bytes(&v, sizeof(T));  // little-endian hosts only (every platform svcpp ships for)
    }

    void Bytes(const void *p, size_t n) {
        if (size_ + n <= capacity_ && n > 0) std::memcpy(buffer_ + size_, p, n);
        size_ += n;
    }

    uint8_t *buffer_;
    size_t capacity_;
    size_t size_ = 0;
};

/** A getter's non-Ok result inside a snapshot: ends it with that Svcpp_Errc (and the getter's last-error detail). */
struct SnapshotGetterFailed {
    Svcpp_Errc rc;
};

inline void Must(Svcpp_Errc rc) {
    if (rc != Svcpp_Errc_Ok) throw SnapshotGetterFailed{rc};
}

/** Drops an output handle (or span) of a getter when the scope ends, also when a later getter fails. */
template <class H>
class DropOnExit {
  public:
    DropOnExit(H *h, Svcpp_Errc (*drop)(H *)) : h_(h), drop_(drop) {}
    DropOnExit(const DropOnExit &) = delete;
    DropOnExit &operator=(const DropOnExit &) = delete;
    ~DropOnExit() { drop_(h_); }

  private:
    H *h_;
    Svcpp_Errc (*drop_)(H *);
};

/**
 * Runs a WriteSnapshot body: checks the buffer arguments, reports the size on success; a getter's failure returns
 * its own Svcpp_Errc with the detail it left in the thread's last error; everything else goes through Guard.
 */
template <class Body>
Svcpp_Errc SnapshotGuard(const char *function, uint8_t *buffer, size_t capacity, size_t *size, Body &&body) noexcept {
    Svcpp_Errc getterRc = Svcpp_Errc_Ok;
    Svcpp_Errc rc = Guard(function, [&] {
        Require(size, "size");
        if (!buffer && capacity > 0)
            throw core::AbiError(core::Errc::NullArgument, "buffer is NULL with a capacity above 0");
        SnapshotWriter writer(buffer, capacity);
        try {
            body(writer);
        } catch (const SnapshotGetterFailed &failed) {
            getterRc = failed.rc;
            return;
        }
        *size = writer.Size();
    });
    return getterRc != Svcpp_Errc_Ok ? getterRc : rc;
}

}  // namespace svcpp::capi
