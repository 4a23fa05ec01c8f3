// The lobby half of the gateway: READY `lobbies` and the LOBBY_* dispatches (platform/PROTOCOL.md §10.5)
// applied to the lobby cache (members' users into the user cache), answered with the events to post.
// Pure state transitions without I/O, so the rules are unit-tested on dispatch sequences.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "lobbies/lobby_cache.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::lobbies {

struct LobbyEvent {
    enum class Kind { Created, Deleted, Updated, MemberAdded, MemberRemoved, MemberUpdated };
    Kind kind;
    uint64_t lobbyId = 0;
    uint64_t memberId = 0;  // member events only

    bool operator==(const LobbyEvent &) const = default;
};

/** A lobby object → LobbyRecord (id 0 when it has no valid id); members without a valid id are skipped. */
LobbyRecord ParseLobby(const nlohmann::json &lobby);
LobbyMemberRecord ParseMember(const nlohmann::json &member);

/**
 * READY: the cache becomes exactly READY's lobbies. Every lobby is reported Created ("became available,
 * may repeat"); a lobby cached before but absent now is reported Deleted.
 */
std::vector<LobbyEvent> ApplyReady(LobbyCache &lobbies, UserCache &users, const nlohmann::json &readyLobbies);

/**
 * One LOBBY_* dispatch (other types: no change, no events). Member events are never reported for the signed-in
 * user (selfId); the user's own removal deletes the lobby for them.
 */
std::vector<LobbyEvent> ApplyDispatch(LobbyCache &lobbies, UserCache &users, uint64_t selfId, std::string_view type,
                                      const nlohmann::json &data);

}  // namespace svcpp::core::lobbies
