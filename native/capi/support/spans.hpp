// Spans (c-abi.md §5): Svcpp_<T>Span {ptr, size} between core vectors and C. An element is an ordinary
// handle (one registry box per element), so everything that works on a handle works on a span element.
#pragma once
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
 * (borrowed, c-abi.md §10). Elements the host dropped through the span are zeroed and skipped.
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
        if (span->size) throw core::AbiError(core::Errc::NullArgument, "span: ptr is NULL but size is " + std::to_string(span->size));
        return;
    }
    for (size_t i = 0; i < span->size; ++i) {
        if (span->ptr[i].opaque && !IsLive<T>(&span->ptr[i])) {
            throw core::AbiError(core::Errc::InvalidHandle, "span element " + std::to_string(i) + " is not a live handle of this type");
        }
    }
    DropHandles<T>(span->ptr, span->size);
    std::free(span->ptr);
    *span = Span{};
}

}  // namespace svcpp::capi
