// A user's voice state in a lobby call, as VOICE_STATE_UPDATE reports it (platform/PROTOCOL.md §13 Voice).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace svcpp::core::voice {

struct VoiceStateRecord {
    uint64_t userId = 0;
    uint64_t channelId = 0;  // the lobby; 0 = not in a call (left)
    uint64_t lobbyId = 0;    // the lobby the state is about (also on a leave, where channel_id is null)
    std::string sessionId;
    bool selfMute = false;
    bool selfDeaf = false;
    bool mute = false;  // server-side mute (not used by lobby calls today)
    bool deaf = false;
    bool operator==(const VoiceStateRecord &) const = default;
};

/** Reads a voice state object; nullopt without a user id. */
std::optional<VoiceStateRecord> ParseVoiceState(const nlohmann::json &object);

}  // namespace svcpp::core::voice
