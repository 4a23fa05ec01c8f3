// Call: the live handle of Svcpp_Call (docs/voice.md). Names one CallSession; getters read its current state and
// return defaults once the call is over (Disconnected) or the client is gone; setters then throw
// AbiError(InvalidHandle). Copying copies the reference.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "generated/callbacks.hpp"
#include "generated/enums.hpp"
#include "generated/values.hpp"
#include "voice/voice_state_handle.hpp"

namespace svcpp::core {

namespace voice {
class CallSession;
}

class Call {
  public:
    Call() = default;
    explicit Call(std::weak_ptr<voice::CallSession> session) : session_(std::move(session)) {}

    bool IsValid() const;
    CallStatus GetStatus() const;
    uint64_t GetChannelId() const;
    uint64_t GetGuildId() const { return 0; }
    std::vector<uint64_t> GetParticipants() const;
    std::optional<VoiceStateHandle> GetVoiceStateHandle(uint64_t userId) const;
    void SetStatusChangedCallback(CallOnStatusChanged &&cb);
    void SetParticipantChangedCallback(CallOnParticipantChanged &&cb);
    void SetOnVoiceStateChangedCallback(CallOnVoiceStateChanged &&cb);
    void SetSpeakingStatusChangedCallback(CallOnSpeakingStatusChanged &&cb);
    bool GetSelfMute() const;
    void SetSelfMute(bool mute);
    bool GetSelfDeaf() const;
    void SetSelfDeaf(bool deaf);
    bool GetLocalMute(uint64_t userId) const;
    void SetLocalMute(uint64_t userId, bool mute);
    float GetParticipantVolume(uint64_t userId) const;
    void SetParticipantVolume(uint64_t userId, float volume);
    AudioModeType GetAudioMode() const;
    void SetAudioMode(AudioModeType mode);
    bool GetPTTActive() const;
    void SetPTTActive(bool active);
    uint32_t GetPTTReleaseDelay() const;
    void SetPTTReleaseDelay(uint32_t releaseDelayMs);
    VADThresholdSettings GetVADThreshold() const;
    void SetVADThreshold(bool automatic, float threshold);
    // end-to-end encryption (DAVE): svcpp additions
    CallEncryptionState GetEncryptionState() const;
    void SetEncryptionStateChangedCallback(CallOnEncryptionStateChanged &&cb);
    std::string GetPrivacyCode() const;
    uint64_t GetParticipantFramesDecrypted(uint64_t userId) const;
    uint64_t GetParticipantFramesPassedThrough(uint64_t userId) const;
    uint64_t GetParticipantFramesDropped(uint64_t userId) const;
    uint64_t GetParticipantFramesPlayed(uint64_t userId) const;
    uint64_t GetFramesEncrypted() const;
    std::string GetParticipantFingerprint(uint64_t userId) const;

  private:
    /** The session while the call is live, else nullptr. */
    std::shared_ptr<voice::CallSession> Live() const;
    /** The live session, or AbiError(InvalidHandle) for a setter on a call that is over. */
    std::shared_ptr<voice::CallSession> Require(const char *what) const;

    std::weak_ptr<voice::CallSession> session_;
};

}  // namespace svcpp::core
