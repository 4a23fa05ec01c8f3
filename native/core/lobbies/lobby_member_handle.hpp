// LobbyMemberHandle: the live handle of Svcpp_LobbyMemberHandle. Names (lobby, member) in a client's lobby
// cache and reads the current state on every call; defaults and IsValid() false once the member, its lobby or
// the client is gone. Copying copies the reference.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "lobbies/lobby_cache.hpp"
#include "users/user_handle.hpp"

namespace svcpp::core {

class LobbyMemberHandle {
  public:
    LobbyMemberHandle() = default;
    LobbyMemberHandle(std::weak_ptr<const LobbyCache> lobbies, std::weak_ptr<const UserCache> users, uint64_t lobbyId,
                      uint64_t memberId)
        : lobbies_(std::move(lobbies)), users_(std::move(users)), lobbyId_(lobbyId), memberId_(memberId) {}

    bool IsValid() const { return Record().has_value(); }
    uint64_t Id() const { return Record() ? memberId_ : 0; }
    bool Connected() const { return Record().value_or(LobbyMemberRecord{}).connected; }
    Properties Metadata() const { return Record().value_or(LobbyMemberRecord{}).metadata; }
    std::optional<UserHandle> User() const;
    bool CanLinkLobby() const { return (Record().value_or(LobbyMemberRecord{}).flags & kLobbyMemberCanLinkLobby) != 0; }
    /** svcpp: the server-set display name of the member, when set (reference 1.10 has it on messages only). */
    std::optional<std::string> AdditionalName() const { return Record().value_or(LobbyMemberRecord{}).additionalName; }

  private:
    std::optional<LobbyMemberRecord> Record() const;

    std::weak_ptr<const LobbyCache> lobbies_;
    std::weak_ptr<const UserCache> users_;
    uint64_t lobbyId_ = 0;
    uint64_t memberId_ = 0;
};

}  // namespace svcpp::core
