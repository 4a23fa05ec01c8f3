// Helpers of the MLS suites: loading a vector file from vectors/ (and hex conversion, hex.hpp).
#pragma once
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "hex.hpp"
#include "mls/bytes.hpp"

namespace svcpp::core::mls::test {

inline nlohmann::json LoadVectors(const std::string &name) {
    std::ifstream in(std::string(SVCPP_MLS_VECTORS_DIR) + "/" + name);
    if (!in) throw std::runtime_error("missing vector file " + name);
    return nlohmann::json::parse(in);
}

inline Bytes HexField(const nlohmann::json &object, const char *field) {
    return Hex(object.at(field).get<std::string>());
}

}  // namespace svcpp::core::mls::test
