// Svcpp_String in and out: validation (NULL, UTF-8, limits in code points) and library-owned outputs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "svcpp.h"

namespace svcpp::capi {

/**
 * Copies a required input string. Throws NullArgument for {NULL, n > 0}, InvalidUtf8 for malformed UTF-8,
 * InvalidArgument when it has more than maxCodePoints code points (0 = no limit).
 */
std::string InString(Svcpp_String s, const char *what, size_t maxCodePoints);

/** Writes a library-allocated, NUL-terminated copy to *out (freed by the caller with Svcpp_Free). */
void OutString(std::string_view value, Svcpp_String *out, const char *what);

/** A borrowed view for a callback argument (valid for the duration of the callback). */
inline Svcpp_String Borrow(std::string_view s) {
    return Svcpp_String{reinterpret_cast<uint8_t *>(const_cast<char *>(s.data())), s.size()};
}

/** Number of code points, or npos with *badOffset set when the bytes are not valid UTF-8. */
size_t CountUtf8(const uint8_t *bytes, size_t size, size_t *badOffset);

}  // namespace svcpp::capi
