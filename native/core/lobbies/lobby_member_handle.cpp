#include "lobbies/lobby_member_handle.hpp"

namespace svcpp::core {

std::optional<LobbyMemberRecord> LobbyMemberHandle::Record() const {
    auto lobbies = lobbies_.lock();
    if (!lobbies) return std::nullopt;
    return lobbies->GetMember(lobbyId_, memberId_);
}

std::optional<UserHandle> LobbyMemberHandle::User() const {
    auto users = users_.lock();
    if (!Record() || !users || !users->Contains(memberId_)) return std::nullopt;
    return UserHandle(users_, memberId_);
}

}  // namespace svcpp::core
