// Readers and writers for the platform's string maps (lobby/member/message metadata) and ISO 8601
// timestamps. Tolerant like json_fields: a missing or wrong-typed value reads as empty / 0.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "values/properties.hpp"

namespace svcpp::core::wire {

/** The object `key` as a string map; entries whose value is not a string are skipped; null/absent → empty. */
Properties StringMap(const nlohmann::json &object, const char *key);
/** A string map as a JSON object. */
nlohmann::json MapJson(const Properties &map);
/** An ISO 8601 timestamp ("2024-05-01T10:00:00.123Z" or with an offset) as Unix milliseconds; 0 when absent/malformed.
 */
uint64_t TimestampMs(const nlohmann::json &object, const char *key);

}  // namespace svcpp::core::wire
