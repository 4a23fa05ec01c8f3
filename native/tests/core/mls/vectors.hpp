// Helpers of the MLS suites: hex conversion and loading a vector file from vectors/.
#pragma once
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "mls/bytes.hpp"

namespace svcpp::core::mls::test {

inline Bytes Hex(const std::string& hex) {
    if (hex.size() % 2) throw std::invalid_argument("odd hex length");
    Bytes out(hex.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return out;
}

inline std::string ToHex(ByteView bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (uint8_t b : bytes) {
        out.push_back(digits[b >> 4]);
        out.push_back(digits[b & 15]);
    }
    return out;
}

inline nlohmann::json LoadVectors(const std::string& name) {
    std::ifstream in(std::string(SVCPP_MLS_VECTORS_DIR) + "/" + name);
    if (!in) throw std::runtime_error("missing vector file " + name);
    return nlohmann::json::parse(in);
}

inline Bytes HexField(const nlohmann::json& object, const char* field) { return Hex(object.at(field).get<std::string>()); }

}  // namespace svcpp::core::mls::test
