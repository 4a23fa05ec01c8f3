// Hex conversion for the MLS suites and the interop executable.
#pragma once
#include <stdexcept>
#include <string>

#include "mls/bytes.hpp"

namespace svcpp::core::mls::test {

inline Bytes Hex(const std::string &hex) {
    if (hex.size() % 2) throw std::invalid_argument("odd hex length");
    Bytes out(hex.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return out;
}

inline std::string ToHex(ByteView bytes) {
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (uint8_t b : bytes) {
        out.push_back(digits[b >> 4]);
        out.push_back(digits[b & 15]);
    }
    return out;
}

}  // namespace svcpp::core::mls::test
