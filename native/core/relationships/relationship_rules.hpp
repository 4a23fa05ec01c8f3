// The local precondition checks of the relationship methods (native/SEMANTICS.md "Social layer: relationships…",
// order of checks): a call that cannot succeed fails with ValidationError before anything is sent, so the platform's
// state (and the cache) stay as they were. The platform checks the same rules (PROTOCOL.md §10.1 80012 …); checking
// here spares a round trip and gives the reference's documented ValidationError.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "relationships/relationship_cache.hpp"

namespace svcpp::core::relationships {

enum class Action { SendRequest, Accept, Reject, Cancel, Remove, Block, Unblock };

/** Which relationship a call changes: the platform-wide one or this game's (PROTOCOL.md §10.1, the two axes). */
enum class Axis { Platform, Game };

/** Who asks: the signed-in user. */
struct Self {
    uint64_t id = 0;
    bool provisional = false;
};

/**
 * The error message when `action` on `axis` cannot apply to the current relationship with
 * `target`; nullopt when it may be sent. Remove on the platform axis means RemovePlatformAndGameFriend (a friend on
 * either axis), Block and Unblock are platform-only.
 */
std::optional<std::string> CheckTransition(const Self &self, uint64_t target, const RelationshipRecord &current,
                                           Action action, Axis axis);

/** The checks of a request by username: not empty, not the user's own name, no platform axis for provisional users. */
std::optional<std::string> CheckRequestByName(const Self &self, const std::string &ownUsername,
                                              const std::string &username, Axis axis);

}  // namespace svcpp::core::relationships
