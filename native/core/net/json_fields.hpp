// Tolerant readers for the fields of the platform's JSON objects. A missing field or one of the wrong type
// reads as the default instead of throwing (nlohmann's value() throws on a type mismatch, and these run in
// I/O handlers where one odd payload must not take the session down).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace svcpp::core::wire {

/** The member `key` of an object, or a null value when absent (or when `object` is not an object). */
const nlohmann::json &Member(const nlohmann::json &object, const char *key);
/** A snowflake (or permission set) sent as a decimal string; 0 when absent or malformed. */
uint64_t Snowflake(const nlohmann::json &object, const char *key);
std::optional<std::string> OptionalString(const nlohmann::json &object, const char *key);
/** The string, or "" when absent or not a string. */
std::string String(const nlohmann::json &object, const char *key);
int32_t Int(const nlohmann::json &object, const char *key, int32_t fallback);
/** True only for a present `true`. */
bool Bool(const nlohmann::json &object, const char *key);

}  // namespace svcpp::core::wire
