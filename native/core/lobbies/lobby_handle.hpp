// LobbyHandle: the live handle of Svcpp_LobbyHandle. Names a lobby of a client's lobby cache and reads the
// current state on every call; defaults and IsValid() false once the lobby is gone for the user (left,
// deleted, disconnected) or the client is dropped. Copying copies the reference.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "lobbies/lobby_cache.hpp"
#include "lobbies/lobby_member_handle.hpp"
#include "voice/call_info_handle.hpp"

namespace svcpp::core {

class LobbyHandle {
  public:
    LobbyHandle() = default;
    LobbyHandle(std::weak_ptr<const LobbyCache> lobbies, std::weak_ptr<const UserCache> users,
                std::weak_ptr<const voice::LobbyCallReader> lobbyCalls, uint64_t lobbyId)
        : lobbies_(std::move(lobbies)),
          users_(std::move(users)),
          lobbyCalls_(std::move(lobbyCalls)),
          lobbyId_(lobbyId) {}

    bool IsValid() const;
    uint64_t Id() const { return IsValid() ? lobbyId_ : 0; }
    std::vector<uint64_t> LobbyMemberIds() const;
    std::vector<LobbyMemberHandle> LobbyMembers() const;
    std::optional<LobbyMemberHandle> GetLobbyMemberHandle(uint64_t memberId) const;
    Properties Metadata() const;
    std::optional<core::LinkedChannel> LinkedChannel() const;
    /** Who is in the lobby's call (without joining it); absent while nobody is. */
    std::optional<CallInfoHandle> GetCallInfoHandle() const;

  private:
    /** `read(lobby)` while the client and the lobby exist; nullopt otherwise. */
    template <typename Reader>
    auto With(Reader &&read) const -> std::optional<std::invoke_result_t<Reader, const LobbyRecord &>> {
        auto lobbies = lobbies_.lock();
        if (!lobbies) return std::nullopt;
        return lobbies->Read(lobbyId_, std::forward<Reader>(read));
    }

    std::weak_ptr<const LobbyCache> lobbies_;
    std::weak_ptr<const UserCache> users_;
    std::weak_ptr<const voice::LobbyCallReader> lobbyCalls_;
    uint64_t lobbyId_ = 0;
};

}  // namespace svcpp::core
