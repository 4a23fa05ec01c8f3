#include "voice/voice_state.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::voice {

std::optional<VoiceStateRecord> ParseVoiceState(const nlohmann::json &object) {
    VoiceStateRecord state;
    state.userId = wire::Snowflake(object, "user_id");
    if (!state.userId) return std::nullopt;
    state.channelId = wire::Snowflake(object, "channel_id");
    state.lobbyId = wire::Snowflake(object, "lobby_id");
    if (!state.lobbyId) state.lobbyId = state.channelId;
    state.sessionId = wire::String(object, "session_id");
    state.selfMute = wire::Bool(object, "self_mute");
    state.selfDeaf = wire::Bool(object, "self_deaf");
    state.mute = wire::Bool(object, "mute");
    state.deaf = wire::Bool(object, "deaf");
    return state;
}

}  // namespace svcpp::core::voice
