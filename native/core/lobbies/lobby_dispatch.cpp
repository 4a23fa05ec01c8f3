#include "lobbies/lobby_dispatch.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::lobbies {

namespace {

using Kind = LobbyEvent::Kind;

/** Members carry their public user object: cache it so LobbyMemberHandle::User and message authors resolve. */
void UpsertMemberUsers(UserCache &users, const nlohmann::json &lobby) {
    const auto &members = wire::Member(lobby, "members");
    if (!members.is_array()) return;
    for (const auto &member : members) {
        UserRecord user = ParseUser(wire::Member(member, "user"));
        if (user.id) users.Upsert(user);
    }
}

void UpsertMemberUser(UserCache &users, const nlohmann::json &member) {
    UserRecord user = ParseUser(wire::Member(member, "user"));
    if (user.id) users.Upsert(user);
}

}  // namespace

LobbyMemberRecord ParseMember(const nlohmann::json &member) {
    LobbyMemberRecord m;
    m.id = wire::Snowflake(member, "id");
    if (!m.id) m.id = wire::Snowflake(wire::Member(member, "user"), "id");
    m.connected = wire::Bool(member, "connected");
    m.metadata = wire::StringMap(member, "metadata");
    m.flags = static_cast<uint32_t>(wire::Int(member, "flags", 0));
    m.additionalName = wire::OptionalString(member, "additional_name");
    return m;
}

LobbyRecord ParseLobby(const nlohmann::json &lobby) {
    LobbyRecord l;
    l.id = wire::Snowflake(lobby, "id");
    l.applicationId = wire::Snowflake(lobby, "application_id");
    l.metadata = wire::StringMap(lobby, "metadata");
    const auto &members = wire::Member(lobby, "members");
    if (members.is_array()) {
        for (const auto &member : members) {
            LobbyMemberRecord m = ParseMember(member);
            if (m.id) l.members.push_back(std::move(m));
        }
    }
    const auto &linked = wire::Member(lobby, "linked_channel");
    if (linked.is_object() && wire::Snowflake(linked, "id")) {
        l.linkedChannel = LinkedChannel{wire::Snowflake(linked, "id"), wire::String(linked, "name"),
                                        wire::Snowflake(linked, "guild_id")};
    }
    return l;
}

std::vector<LobbyEvent> ApplyReady(LobbyCache &lobbies, UserCache &users, const nlohmann::json &readyLobbies) {
    std::vector<LobbyEvent> events;
    // Each lobby object is read once; the records are put after the departures are known.
    std::vector<LobbyRecord> present;
    if (readyLobbies.is_array()) {
        present.reserve(readyLobbies.size());
        for (const auto &lobby : readyLobbies) {
            LobbyRecord record = ParseLobby(lobby);
            if (!record.id) continue;
            UpsertMemberUsers(users, lobby);
            present.push_back(std::move(record));
        }
    }
    const std::set<uint64_t> presentIds = [&present] {
        std::set<uint64_t> ids;
        for (const auto &record : present) ids.insert(record.id);
        return ids;
    }();
    // Lobbies lost while the session was away go first, then every present one is (re)announced.
    for (uint64_t id : lobbies.Ids()) {
        if (presentIds.count(id)) continue;
        lobbies.Remove(id);
        events.push_back({Kind::Deleted, id});
    }
    for (auto &record : present) {
        const uint64_t id = record.id;
        lobbies.Put(std::move(record));
        events.push_back({Kind::Created, id});
    }
    return events;
}

std::vector<LobbyEvent> ApplyDispatch(LobbyCache &lobbies, UserCache &users, uint64_t selfId, std::string_view type,
                                      const nlohmann::json &data) {
    std::vector<LobbyEvent> events;
    if (type == "LOBBY_CREATE" || type == "LOBBY_UPDATE") {
        LobbyRecord record = ParseLobby(data);
        if (!record.id) return events;
        UpsertMemberUsers(users, data);
        const uint64_t id = record.id;
        const bool added = lobbies.Put(std::move(record));
        // An update of a lobby the cache did not know makes it available: that is a Created.
        events.push_back({type == "LOBBY_CREATE" || added ? Kind::Created : Kind::Updated, id});
    } else if (type == "LOBBY_DELETE") {
        const uint64_t id = wire::Snowflake(data, "id");
        if (id && lobbies.Remove(id)) events.push_back({Kind::Deleted, id});
    } else if (type == "LOBBY_MEMBER_ADD" || type == "LOBBY_MEMBER_UPDATE") {
        const uint64_t lobbyId = wire::Snowflake(data, "lobby_id");
        const auto &member = wire::Member(data, "member");
        LobbyMemberRecord record = ParseMember(member);
        if (!lobbyId || !record.id) return events;
        UpsertMemberUser(users, member);
        const uint64_t memberId = record.id;
        auto change = lobbies.PutMember(lobbyId, std::move(record));
        if (!change || memberId == selfId) return events;
        events.push_back(
            {*change == LobbyCache::MemberChange::Added ? Kind::MemberAdded : Kind::MemberUpdated, lobbyId, memberId});
    } else if (type == "LOBBY_MEMBER_REMOVE") {
        const uint64_t lobbyId = wire::Snowflake(data, "lobby_id");
        const uint64_t memberId = wire::Snowflake(wire::Member(data, "member"), "id");
        if (!lobbyId || !memberId) return events;
        if (memberId == selfId) {
            // The platform sends LOBBY_DELETE for the user's own removal; this covers a member event that races it.
            if (lobbies.Remove(lobbyId)) events.push_back({Kind::Deleted, lobbyId});
        } else if (lobbies.RemoveMember(lobbyId, memberId)) {
            events.push_back({Kind::MemberRemoved, lobbyId, memberId});
        }
    }
    return events;
}

}  // namespace svcpp::core::lobbies
