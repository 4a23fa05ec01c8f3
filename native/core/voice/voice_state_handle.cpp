#include "voice/voice_state_handle.hpp"

#include "voice/call_session.hpp"
#include "voice/lobby_call_reader.hpp"

namespace svcpp::core {

std::optional<voice::VoiceStateRecord> VoiceStateHandle::Read() const {
    if (auto calls = lobbyCalls_.lock()) {
        for (const auto &state : calls->LobbyCall(lobbyId_).value_or(std::vector<voice::VoiceStateRecord>{})) {
            if (state.userId == userId_) return state;
        }
        return std::nullopt;
    }
    auto session = session_.lock();
    if (!session || session->Ended()) return std::nullopt;
    return session->VoiceState(userId_);
}

}  // namespace svcpp::core
