#include "lobbies/lobby_handle.hpp"

namespace svcpp::core {

std::optional<LobbyRecord> LobbyHandle::Record() const {
    auto lobbies = lobbies_.lock();
    if (!lobbies) return std::nullopt;
    return lobbies->Get(lobbyId_);
}

std::vector<uint64_t> LobbyHandle::LobbyMemberIds() const {
    std::vector<uint64_t> ids;
    if (auto r = Record())
        for (const auto &member : r->members) ids.push_back(member.id);
    return ids;
}

std::vector<LobbyMemberHandle> LobbyHandle::LobbyMembers() const {
    std::vector<LobbyMemberHandle> handles;
    for (uint64_t id : LobbyMemberIds()) handles.emplace_back(lobbies_, users_, lobbyId_, id);
    return handles;
}

std::optional<LobbyMemberHandle> LobbyHandle::GetLobbyMemberHandle(uint64_t memberId) const {
    auto lobbies = lobbies_.lock();
    if (!lobbies || !lobbies->GetMember(lobbyId_, memberId)) return std::nullopt;
    return LobbyMemberHandle(lobbies_, users_, lobbyId_, memberId);
}

Properties LobbyHandle::Metadata() const { return Record().value_or(LobbyRecord{}).metadata; }

std::optional<core::LinkedChannel> LobbyHandle::LinkedChannel() const {
    auto r = Record();
    if (!r) return std::nullopt;
    return r->linkedChannel;
}

}  // namespace svcpp::core
