// Byte strings and the one error type of the MLS library.
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace svcpp::core::mls {

using Bytes = std::vector<uint8_t>;
using ByteView = std::span<const uint8_t>;

/** Any failure of the MLS library: malformed input, failed authentication, an OpenSSL error. */
class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/** Input that does not follow the TLS presentation language (bad length, truncated, trailing bytes). */
class DecodeError : public Error {
  public:
    using Error::Error;
};

inline Bytes ToBytes(std::string_view text) { return Bytes(text.begin(), text.end()); }

inline Bytes Concat(ByteView a, ByteView b) {
    Bytes out(a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

}  // namespace svcpp::core::mls
