// The friends list views over the relationship and user caches: GetRelationshipsByGroup and
// SearchFriendsByUsername (native/SEMANTICS.md "Social layer: relationships, presence, invites", "Groups").
//
// Groups hold friends only (a friend on either axis): pending requests and blocks are relationships but not part
// of a friends list (GetRelationships has them). A friend is online when their status is Online, Idle, Dnd or
// Streaming (Invisible users are shown to others as Offline); OnlinePlayingGame additionally needs an activity of
// this application (UserRecord::gameActivity).
//
// Order (the reference documents none; svcpp's choice, stable for a UI list): display name compared
// case-insensitively (ASCII folding), then the user id.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "relationships/relationship_cache.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::relationships {

/** A friend's group; nullopt for a relationship that is not a friendship. `user` may be null (not cached: Offline). */
std::optional<RelationshipGroupType> GroupOf(const RelationshipRecord &relationship, const UserRecord *user);

/** The ids of the friends in `group`, in display order. */
std::vector<uint64_t> MembersOf(RelationshipGroupType group, const std::vector<RelationshipRecord> &relationships,
                                const UserCache &users);

/** The ids of the friends whose username or display name contains `query` (case-insensitive), in display order. */
std::vector<uint64_t> SearchFriends(const std::string &query, const std::vector<RelationshipRecord> &relationships,
                                    const UserCache &users);

}  // namespace svcpp::core::relationships
