// LobbyCallReader: who is in each lobby's call, as the main gateway's voice states tell it — also for lobbies whose
// call this user has not joined (LobbyHandle::GetCallInfoHandle). The voice area implements it; handles hold it weakly,
// so they read defaults once the client is gone.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "voice/voice_state.hpp"

namespace svcpp::core::voice {

class LobbyCallReader {
  public:
    virtual ~LobbyCallReader() = default;
    /** The voice states of everyone in the lobby's call (ordered by user id); nullopt when nobody is in it. */
    virtual std::optional<std::vector<VoiceStateRecord>> LobbyCall(uint64_t lobbyId) const = 0;
};

}  // namespace svcpp::core::voice
