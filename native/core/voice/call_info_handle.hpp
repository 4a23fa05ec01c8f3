// CallInfoHandle: the live handle of Svcpp_CallInfoHandle (LobbyHandle::GetCallInfoHandle) — who is in a lobby's
// call without joining it. Reads the lobby's current voice states on every call; defaults and IsValid() false once
// nobody is in the call any more, the lobby is gone or the client is dropped.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "voice/lobby_call_reader.hpp"
#include "voice/voice_state_handle.hpp"

namespace svcpp::core {

class CallInfoHandle {
  public:
    CallInfoHandle() = default;
    CallInfoHandle(std::weak_ptr<const voice::LobbyCallReader> calls, uint64_t lobbyId)
        : calls_(std::move(calls)), lobbyId_(lobbyId) {}

    bool IsValid() const { return Read().has_value(); }
    /** The lobby id: a lobby's call is its channel (0 when invalid). */
    uint64_t ChannelId() const { return IsValid() ? lobbyId_ : 0; }
    /** Always 0: lobby calls belong to no guild. */
    uint64_t GuildId() const { return 0; }
    std::vector<uint64_t> GetParticipants() const;
    std::optional<VoiceStateHandle> GetVoiceStateHandle(uint64_t userId) const;

  private:
    std::optional<std::vector<voice::VoiceStateRecord>> Read() const;

    std::weak_ptr<const voice::LobbyCallReader> calls_;
    uint64_t lobbyId_ = 0;
};

}  // namespace svcpp::core
