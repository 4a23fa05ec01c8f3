#include "support/spans.hpp"

#include <cstring>

namespace svcpp::capi {

std::vector<uint64_t> InU64Span(Svcpp_UInt64Span span, const char *what) {
    if (!span.ptr) {
        if (span.size)
            throw core::AbiError(core::Errc::NullArgument,
                                 std::string(what) + ": ptr is NULL but size is " + std::to_string(span.size));
        return {};
    }
    return std::vector<uint64_t>(span.ptr, span.ptr + span.size);
}

void OutU64Span(const std::vector<uint64_t> &values, Svcpp_UInt64Span *out, const char *what) {
    Require(out, what);
    if (values.empty()) {
        *out = Svcpp_UInt64Span{};
        return;
    }
    auto *buffer = static_cast<uint64_t *>(std::malloc(sizeof(uint64_t) * values.size()));
    if (!buffer) throw std::bad_alloc();
    std::memcpy(buffer, values.data(), sizeof(uint64_t) * values.size());
    *out = Svcpp_UInt64Span{buffer, values.size()};
}

void DropU64Span(Svcpp_UInt64Span *span) {
    Require(span, "span");
    if (!span->ptr && span->size) {
        throw core::AbiError(core::Errc::NullArgument, "span: ptr is NULL but size is " + std::to_string(span->size));
    }
    std::free(span->ptr);
    *span = Svcpp_UInt64Span{};
}

}  // namespace svcpp::capi
