// VoiceStateHandle: the live handle of Svcpp_VoiceStateHandle — one participant's voice state in one call, read
// either from a call this user is in (Call::GetVoiceStateHandle) or from a lobby's call seen from outside
// (CallInfoHandle::GetVoiceStateHandle). Defaults and IsValid() false once the participant left, the call ended or
// the client is gone.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "voice/voice_state.hpp"

namespace svcpp::core {

namespace voice {
class CallSession;
class LobbyCallReader;
}  // namespace voice

class VoiceStateHandle {
  public:
    VoiceStateHandle() = default;
    VoiceStateHandle(std::weak_ptr<const voice::CallSession> session, uint64_t userId)
        : session_(std::move(session)), userId_(userId) {}
    VoiceStateHandle(std::weak_ptr<const voice::LobbyCallReader> lobbyCalls, uint64_t lobbyId, uint64_t userId)
        : lobbyCalls_(std::move(lobbyCalls)), lobbyId_(lobbyId), userId_(userId) {}

    bool IsValid() const { return Read().has_value(); }
    bool SelfMute() const { return Read().value_or(voice::VoiceStateRecord{}).selfMute; }
    bool SelfDeaf() const { return Read().value_or(voice::VoiceStateRecord{}).selfDeaf; }

  private:
    std::optional<voice::VoiceStateRecord> Read() const;

    std::weak_ptr<const voice::CallSession> session_;         // set for a call this user is in
    std::weak_ptr<const voice::LobbyCallReader> lobbyCalls_;  // set for a lobby's call seen from outside
    uint64_t lobbyId_ = 0;
    uint64_t userId_ = 0;
};

}  // namespace svcpp::core
