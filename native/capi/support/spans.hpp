// Spans (native/SEMANTICS.md "Spans"): Svcpp_<T>Span {ptr, size} between core vectors and C. An element of a handle
// span is an ordinary handle (one registry box per element), so everything that works on a handle works on a span
// element; Svcpp_UInt64Span holds plain integers.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "support/guard.hpp"
#include "support/handles.hpp"
#include "support/marshal.hpp"

namespace svcpp::capi {

/** The C handle type of a span's elements (Svcpp_GuildMinimal for Svcpp_GuildMinimalSpan). */
template <class Span>
using SpanElement = std::remove_pointer_t<decltype(Span::ptr)>;

/** Drops the first n handles of a buffer; used when building a span fails half-way. */
template <class T, class H>
void DropHandles(H *handles, size_t n) noexcept {
    for (size_t i = 0; i < n; ++i) {
        try {
            DropValue<T>(&handles[i]);
        } catch (...) {
            // A zeroed or already-dropped element has nothing left to release.
        }
    }
}

/**
 * A span handed to a callback: one temporary handle per element, dropped when the callback returns
 * (borrowed, native/SEMANTICS.md "Spans"). Elements the host dropped through the span are zeroed and skipped.
 */
template <class T, class Span>
class BorrowedSpan {
  public:
    explicit BorrowedSpan(const std::vector<T> &values) {
        handles_.reserve(values.size());
        try {
            for (const T &v : values) handles_.push_back(SpanElement<Span>{NewBox<T>(v)});
        } catch (...) {
            DropHandles<T>(handles_.data(), handles_.size());
            throw;
        }
    }
    ~BorrowedSpan() { DropHandles<T>(handles_.data(), handles_.size()); }
    BorrowedSpan(const BorrowedSpan &) = delete;
    BorrowedSpan &operator=(const BorrowedSpan &) = delete;

    /** The C view; an empty span is {NULL, 0}. */
    Span View() { return Span{handles_.empty() ? nullptr : handles_.data(), handles_.size()}; }

  private:
    std::vector<SpanElement<Span>> handles_;
};

/**
 * Writes a caller-owned span to *out: a buffer from the library allocator (what Svcpp_Free releases) holding a
 * new handle per element. Nothing is written when it fails.
 */
template <class T, class Span>
void OutSpan(const std::vector<T> &values, Span *out, const char *what) {
    Require(out, what);
    if (values.empty()) {
        *out = Span{};
        return;
    }
    using H = SpanElement<Span>;
    auto *buffer = static_cast<H *>(std::malloc(sizeof(H) * values.size()));
    if (!buffer) throw std::bad_alloc();
    size_t made = 0;
    try {
        for (; made < values.size(); ++made) buffer[made].opaque = NewBox<T>(values[made]);
    } catch (...) {
        DropHandles<T>(buffer, made);
        std::free(buffer);
        throw;
    }
    *out = Span{buffer, values.size()};
}

/**
 * Svcpp_<T>Span_Drop: drops every element, frees the buffer, zeroes the span. Every element is checked first
 * (zeroed or a live handle of T), so a rejected call changes nothing.
 */
template <class T, class Span>
void DropSpan(Span *span) {
    Require(span, "span");
    if (!span->ptr) {
        if (span->size)
            ThrowAbiError(core::Errc::NullArgument, "span", ": ptr is NULL but size is ",
                          static_cast<unsigned long long>(span->size));
        return;
    }
    for (size_t i = 0; i < span->size; ++i) {
        if (span->ptr[i].opaque && !IsLive<T>(&span->ptr[i])) {
            throw core::AbiError(core::Errc::InvalidHandle,
                                 "span element " + std::to_string(i) + " is not a live handle of this type");
        }
    }
    DropHandles<T>(span->ptr, span->size);
    std::free(span->ptr);
    *span = Span{};
}

/**
 * A borrowed span input (a list field's setter): a copy of every element's value. NullArgument for {NULL, n > 0},
 * InvalidHandle (naming the index) for a zeroed, dropped or wrong-type element; the caller changes nothing then.
 */
template <class T, class Span>
std::vector<T> InSpan(Span span, const char *what) {
    if (!span.ptr) {
        if (span.size)
            ThrowAbiError(core::Errc::NullArgument, what, ": ptr is NULL but size is ",
                          static_cast<unsigned long long>(span.size));
        return {};
    }
    std::vector<T> copies;
    copies.reserve(span.size);
    for (size_t i = 0; i < span.size; ++i) {
        const std::string at = std::string(what) + "[" + std::to_string(i) + "]";
        copies.push_back(CopyIn<T>(&span.ptr[i], at.c_str()));
    }
    return copies;
}

// ---- Svcpp_UInt64Span: plain uint64_t elements, no handles -----------------------------------------------

/** A copy of a borrowed u64 span input; NullArgument for {NULL, n > 0}. */
std::vector<uint64_t> InU64Span(Svcpp_UInt64Span span, const char *what);

/** Writes a caller-owned copy (buffer from the library allocator, released by Svcpp_Free or _Drop); {NULL, 0} when
 * empty. */
void OutU64Span(const std::vector<uint64_t> &values, Svcpp_UInt64Span *out, const char *what);

/** A view for a callback argument (borrowed; valid while the vector lives). */
inline Svcpp_UInt64Span BorrowU64Span(const std::vector<uint64_t> &values) {
    if (values.empty()) return Svcpp_UInt64Span{};
    return Svcpp_UInt64Span{const_cast<uint64_t *>(values.data()), values.size()};
}

/** Svcpp_UInt64Span_Drop: frees the buffer and zeroes the span; NullArgument for NULL or {NULL, n > 0}. */
void DropU64Span(Svcpp_UInt64Span *span);

}  // namespace svcpp::capi
