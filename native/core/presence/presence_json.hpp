// Presences on the wire (platform/PROTOCOL.md §10.2): status strings and activities — what
// UpdateRichPresence / SetOnlineStatus send and what PRESENCE_UPDATE / READY `presences` carry.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "generated/values.hpp"

namespace svcpp::core::presence {

/** A presence status string ("online", "idle", "dnd", "invisible", "offline") -> StatusType (Unknown otherwise). */
StatusType ParseStatus(const std::string &status);
/** The wire string of a status a user may set (Online, Idle, Dnd, Invisible); nullptr for the others. */
const char *SettableStatusWire(StatusType status);

/**
 * Timestamps below this are seconds (svcpp rule, native/SEMANTICS.md "Social layer: relationships…"): 10^11 s is the
 * year 5138, 10^11 ms 1973.
 */
inline constexpr uint64_t kSecondsBelow = 100000000000ULL;
/** A timestamp in milliseconds (seconds converted; 0 stays 0 = unset). */
uint64_t ToMilliseconds(uint64_t timestamp);

/**
 * The activity object of POST /users/@me/presence. Unset optionals are left out, timestamps are sent in
 * milliseconds, `application_id` is not sent (the platform stamps the token's application).
 */
nlohmann::json ActivityToWire(const Activity &activity);

/** An activity object of a presence -> Activity (tolerant: wrong-typed fields read as unset). */
Activity ActivityFromWire(const nlohmann::json &object);

/** The activity of `applicationId` among a presence's `activities` (nullopt when there is none). */
std::optional<Activity> GameActivityOf(const nlohmann::json &activities, uint64_t applicationId);

}  // namespace svcpp::core::presence
