// Local checks of the social layer's limits (platform/PROTOCOL.md §10, native/SEMANTICS.md "Social layer: lobbies…"): a
// failing call is a ValidationError delivered through its callback before any request goes out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "net/json_maps.hpp"

namespace svcpp::core::validation {

inline constexpr size_t kMaxContent = 2000;        // message content, code points
inline constexpr size_t kMaxMetadataKeys = 25;     // lobby, member and message metadata
inline constexpr size_t kMaxMetadataKey = 1024;    // code points
inline constexpr size_t kMaxMetadataValue = 1024;  // code points
inline constexpr size_t kMaxSecret = 250;          // lobby secret, code points
inline constexpr int32_t kMaxHistory = 200;        // messages per history fetch

/** Code points of a UTF-8 string (the C ABI has already checked it is valid UTF-8). */
size_t CodePoints(const std::string &utf8);

/** nullopt when the value is acceptable, else the ValidationError message. */
std::optional<std::string> CheckContent(const std::string &content);
std::optional<std::string> CheckMetadata(const Properties &metadata, const char *what);
std::optional<std::string> CheckSecret(const std::string &secret);
/** A history limit: <= 0 means kMaxHistory; above it is an error. `limit` is replaced by the effective value. */
std::optional<std::string> CheckHistoryLimit(int32_t &limit);

}  // namespace svcpp::core::validation
