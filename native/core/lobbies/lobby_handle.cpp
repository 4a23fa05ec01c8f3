#include "lobbies/lobby_handle.hpp"

namespace svcpp::core {

bool LobbyHandle::IsValid() const {
    auto lobbies = lobbies_.lock();
    return lobbies && lobbies->Contains(lobbyId_);
}

std::vector<uint64_t> LobbyHandle::LobbyMemberIds() const {
    return With([](const LobbyRecord &lobby) { return lobby.MemberIds(); }).value_or(std::vector<uint64_t>{});
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

Properties LobbyHandle::Metadata() const {
    return With([](const LobbyRecord &lobby) { return lobby.metadata; }).value_or(Properties{});
}

std::optional<core::LinkedChannel> LobbyHandle::LinkedChannel() const {
    return With([](const LobbyRecord &lobby) { return lobby.linkedChannel; }).value_or(std::nullopt);
}

std::optional<CallInfoHandle> LobbyHandle::GetCallInfoHandle() const {
    if (!IsValid()) return std::nullopt;
    CallInfoHandle info(lobbyCalls_, lobbyId_);
    if (!info.IsValid()) return std::nullopt;
    return info;
}

}  // namespace svcpp::core
