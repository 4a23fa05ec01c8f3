#include "voice/call_info_handle.hpp"

namespace svcpp::core {

std::optional<std::vector<voice::VoiceStateRecord>> CallInfoHandle::Read() const {
    auto calls = calls_.lock();
    if (!calls) return std::nullopt;
    return calls->LobbyCall(lobbyId_);
}

std::vector<uint64_t> CallInfoHandle::GetParticipants() const {
    std::vector<uint64_t> ids;
    for (const auto &state : Read().value_or(std::vector<voice::VoiceStateRecord>{})) ids.push_back(state.userId);
    return ids;
}

std::optional<VoiceStateHandle> CallInfoHandle::GetVoiceStateHandle(uint64_t userId) const {
    for (const auto &state : Read().value_or(std::vector<voice::VoiceStateRecord>{})) {
        if (state.userId == userId) return VoiceStateHandle(calls_, lobbyId_, userId);
    }
    return std::nullopt;
}

}  // namespace svcpp::core
