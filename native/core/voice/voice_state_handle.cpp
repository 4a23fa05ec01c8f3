#include "voice/voice_state_handle.hpp"

#include "voice/call_session.hpp"

namespace svcpp::core {

namespace {
std::optional<voice::VoiceStateRecord> Read(const std::weak_ptr<const voice::CallSession> &weak, uint64_t userId) {
    auto session = weak.lock();
    if (!session || session->Ended()) return std::nullopt;
    return session->VoiceState(userId);
}
}  // namespace

bool VoiceStateHandle::IsValid() const { return Read(session_, userId_).has_value(); }
bool VoiceStateHandle::SelfMute() const { return Read(session_, userId_).value_or(voice::VoiceStateRecord{}).selfMute; }
bool VoiceStateHandle::SelfDeaf() const { return Read(session_, userId_).value_or(voice::VoiceStateRecord{}).selfDeaf; }

}  // namespace svcpp::core
