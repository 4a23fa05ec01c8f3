#include "support/strings.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/abi_error.hpp"

namespace svcpp::capi {

using core::AbiError;
using core::Errc;

size_t CountUtf8(const uint8_t *p, size_t n, size_t *badOffset) {
    size_t count = 0;
    for (size_t i = 0; i < n; ++count) {
        const uint8_t b = p[i];
        size_t len;
        uint32_t cp;
        if (b < 0x80) {
            i += 1;
            continue;
        }
        if ((b & 0xE0) == 0xC0) {
            len = 2;
            cp = b & 0x1F;
        } else if ((b & 0xF0) == 0xE0) {
            len = 3;
            cp = b & 0x0F;
        } else if ((b & 0xF8) == 0xF0) {
            len = 4;
            cp = b & 0x07;
        } else {
            *badOffset = i;
            return std::string::npos;
        }
        if (i + len > n) {
            *badOffset = i;
            return std::string::npos;
        }  // truncated sequence
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) {
                *badOffset = i;
                return std::string::npos;
            }
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        // Reject overlong forms, UTF-16 surrogates and values past U+10FFFF (RFC 3629).
        static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < kMin[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
            *badOffset = i;
            return std::string::npos;
        }
        i += len;
    }
    return count;
}

std::string InString(Svcpp_String s, const char *what, size_t maxCodePoints) {
    if (!s.ptr) {
        if (s.size != 0)
            throw AbiError(Errc::NullArgument,
                           std::string(what) + ": ptr is NULL but size is " + std::to_string(s.size));
        return {};
    }
    size_t bad = 0;
    const size_t count = CountUtf8(s.ptr, s.size, &bad);
    if (count == std::string::npos)
        throw AbiError(Errc::InvalidUtf8, std::string(what) + ": invalid UTF-8 at byte " + std::to_string(bad));
    if (maxCodePoints && count > maxCodePoints) {
        throw AbiError(Errc::InvalidArgument, std::string(what) + ": " + std::to_string(count) +
                                                  " code points, the limit is " + std::to_string(maxCodePoints));
    }
    return std::string(reinterpret_cast<const char *>(s.ptr), s.size);
}

void OutString(std::string_view value, Svcpp_String *out, const char *what) {
    if (!out) throw AbiError(Errc::NullArgument, std::string(what) + " is NULL");
    auto *buf = static_cast<uint8_t *>(std::malloc(value.size() + 1));
    if (!buf) throw std::bad_alloc();
    if (!value.empty()) std::memcpy(buf, value.data(), value.size());
    buf[value.size()] = 0;
    out->ptr = buf;
    out->size = value.size();
}

}  // namespace svcpp::capi
