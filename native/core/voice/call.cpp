#include "voice/call.hpp"

#include <cmath>

#include "runtime/abi_error.hpp"
#include "voice/call_session.hpp"
#include "voice/media/volume.hpp"

namespace svcpp::core {

namespace {
/** PTT release delays above this are a mistake (10 s of open microphone after letting go). */
constexpr uint32_t kMaxPttReleaseDelayMs = 10000;
}  // namespace

std::shared_ptr<voice::CallSession> Call::Live() const {
    auto session = session_.lock();
    return session && !session->Ended() ? session : nullptr;
}

std::shared_ptr<voice::CallSession> Call::Require(const char *what) const {
    auto session = Live();
    if (!session)
        throw AbiError(Errc::InvalidHandle,
                       std::string(what) + ": the call is over (Disconnected) or its client is gone");
    return session;
}

bool Call::IsValid() const { return Live() != nullptr; }

CallStatus Call::GetStatus() const {
    auto s = Live();
    return s ? s->Status() : CallStatus::Disconnected;
}

uint64_t Call::GetChannelId() const {
    auto s = Live();
    return s ? s->LobbyId() : 0;
}

std::vector<uint64_t> Call::GetParticipants() const {
    auto s = Live();
    return s ? s->Participants() : std::vector<uint64_t>{};
}

std::optional<VoiceStateHandle> Call::GetVoiceStateHandle(uint64_t userId) const {
    auto s = Live();
    if (!s || !s->VoiceState(userId)) return std::nullopt;
    return VoiceStateHandle(std::weak_ptr<const voice::CallSession>(s), userId);
}

void Call::SetStatusChangedCallback(CallOnStatusChanged &&cb) {
    Require("SetStatusChangedCallback")->statusChanged.Set(std::move(cb));
}
void Call::SetParticipantChangedCallback(CallOnParticipantChanged &&cb) {
    Require("SetParticipantChangedCallback")->participantChanged.Set(std::move(cb));
}
void Call::SetOnVoiceStateChangedCallback(CallOnVoiceStateChanged &&cb) {
    Require("SetOnVoiceStateChangedCallback")->voiceStateChanged.Set(std::move(cb));
}
void Call::SetSpeakingStatusChangedCallback(CallOnSpeakingStatusChanged &&cb) {
    Require("SetSpeakingStatusChangedCallback")->speakingChanged.Set(std::move(cb));
}

bool Call::GetSelfMute() const {
    auto s = Live();
    return s && s->Controls()->EffectiveMute();
}

void Call::SetSelfMute(bool mute) {
    auto s = Require("SetSelfMute");
    s->Controls()->selfMute.store(mute);
    s->SelfStateChanged();
}

bool Call::GetSelfDeaf() const {
    auto s = Live();
    return s && s->Controls()->EffectiveDeaf();
}

void Call::SetSelfDeaf(bool deaf) {
    auto s = Require("SetSelfDeaf");
    s->Controls()->selfDeaf.store(deaf);
    s->SelfStateChanged();
}

bool Call::GetLocalMute(uint64_t userId) const {
    auto s = Live();
    if (!s) return false;
    auto settings = s->Controls()->FindMixSettings(userId);
    return settings && settings->LocalMute();
}

void Call::SetLocalMute(uint64_t userId, bool mute) {
    if (userId == 0) throw AbiError(Errc::InvalidArgument, "userId: 0 is no user");
    Require("SetLocalMute")->Controls()->MixSettings(userId)->SetLocalMute(mute);
}

float Call::GetParticipantVolume(uint64_t userId) const {
    auto s = Live();
    if (!s) return 0.0f;
    auto settings = s->Controls()->FindMixSettings(userId);
    return settings ? settings->Volume() : 100.0f;
}

void Call::SetParticipantVolume(uint64_t userId, float volume) {
    if (userId == 0) throw AbiError(Errc::InvalidArgument, "userId: 0 is no user");
    if (!voice::IsValidVolume(volume, voice::kMaxPlaybackVolume)) {
        throw AbiError(Errc::InvalidArgument, "volume: must be within 0..200 (100 = unity)");
    }
    Require("SetParticipantVolume")->Controls()->MixSettings(userId)->SetVolume(volume);
}

AudioModeType Call::GetAudioMode() const {
    auto s = Live();
    return s ? s->Controls()->audioMode.load() : AudioModeType::MODE_UNINIT;
}

void Call::SetAudioMode(AudioModeType mode) { Require("SetAudioMode")->Controls()->audioMode.store(mode); }

bool Call::GetPTTActive() const {
    auto s = Live();
    return s && s->Controls()->pttActive.load();
}

void Call::SetPTTActive(bool active) { Require("SetPTTActive")->Controls()->pttActive.store(active); }

uint32_t Call::GetPTTReleaseDelay() const {
    auto s = Live();
    return s ? s->Controls()->pttReleaseDelayMs.load() : 0;
}

void Call::SetPTTReleaseDelay(uint32_t releaseDelayMs) {
    if (releaseDelayMs > kMaxPttReleaseDelayMs) throw AbiError(Errc::InvalidArgument, "releaseDelayMs: at most 10000");
    Require("SetPTTReleaseDelay")->Controls()->pttReleaseDelayMs.store(releaseDelayMs);
}

VADThresholdSettings Call::GetVADThreshold() const {
    VADThresholdSettings settings;
    settings.vadThreshold = -60.0f;
    settings.automatic = true;
    if (auto s = Live()) {
        settings.vadThreshold = s->Controls()->vadThresholdDb.load();
        settings.automatic = s->Controls()->vadAutomatic.load();
    }
    return settings;
}

void Call::SetVADThreshold(bool automatic, float threshold) {
    if (!std::isfinite(threshold) || threshold < -100.0f || threshold > 0.0f) {
        throw AbiError(Errc::InvalidArgument, "threshold: must be within -100..0 dBFS");
    }
    auto s = Require("SetVADThreshold");
    s->Controls()->vadThresholdDb.store(threshold);
    s->Controls()->vadAutomatic.store(automatic);
}

CallEncryptionState Call::GetEncryptionState() const {
    CallEncryptionState state;
    if (auto s = Live()) {
        const auto e = s->Encryption();
        state.protocolVersion = e.protocolVersion;
        state.epoch = e.epoch;
        state.transitionPending = e.transitionPending;
        state.passthrough = e.passthrough;
    }
    return state;
}

void Call::SetEncryptionStateChangedCallback(CallOnEncryptionStateChanged &&cb) {
    Require("SetEncryptionStateChangedCallback")->encryptionChanged.Set(std::move(cb));
}

std::string Call::GetPrivacyCode() const {
    auto s = Live();
    return s ? s->PrivacyCode() : std::string();
}

// The frame cryptor's counters only grow: three reads are as good as one snapshot for telling why someone is silent.
uint64_t Call::GetParticipantFramesDecrypted(uint64_t userId) const {
    auto s = Live();
    return s ? s->DecryptStatsFor(userId).decrypted : 0;
}

uint64_t Call::GetParticipantFramesPassedThrough(uint64_t userId) const {
    auto s = Live();
    return s ? s->DecryptStatsFor(userId).passedThrough : 0;
}

uint64_t Call::GetParticipantFramesDropped(uint64_t userId) const {
    auto s = Live();
    return s ? s->DecryptStatsFor(userId).DroppedTotal() : 0;
}

uint64_t Call::GetParticipantFramesPlayed(uint64_t userId) const {
    auto s = Live();
    return s ? s->FramesPlayedFrom(userId) : 0;
}

std::string Call::GetParticipantFingerprint(uint64_t userId) const {
    auto s = Live();
    return s ? s->ParticipantFingerprint(userId) : std::string();
}

uint64_t Call::GetFramesEncrypted() const {
    auto s = Live();
    return s ? s->FramesEncrypted() : 0;
}

}  // namespace svcpp::core
