#include "voice/call_session.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>

#include <nlohmann/json.hpp>

#include "net/client_executor.hpp"
#include "voice/audio_engine.hpp"
#include "voice/call_media.hpp"
#include "voice/e2ee/mls_dave_group.hpp"
#include "voice/e2ee/verification_fingerprint.hpp"
#include "voice/encryption_mode.hpp"
#include "voice/udp_transport.hpp"
#include "voice/voice_gateway.hpp"

namespace svcpp::core::voice {

using nlohmann::json;

struct CallSession::Io {
    explicit Io(const net::ClientExecutor &io) : joinTimer(io) {}
    boost::asio::steady_timer joinTimer;
    std::string sessionId;  // ours, from our VOICE_STATE_UPDATE
    std::string token;      // from VOICE_SERVER_UPDATE
    std::string endpoint;
    bool haveServer = false;
    bool everConnected = false;
    bool selfStateSent = false;  // op 4 with our mute/deaf flags went out since Connected
    std::unique_ptr<VoiceGateway> gateway;
    // End-to-end encryption (DAVE): the call's MLS group and session live as long as the call; the media pipeline,
    // rebuilt on reconnection, shares the frame cryptor.
    e2ee::SteadyClock clock;
    std::shared_ptr<e2ee::DaveFrameTransform> frameCryptor;
    std::unique_ptr<e2ee::MlsDaveGroup> daveGroup;
    std::unique_ptr<e2ee::DaveSession> dave;
    uint32_t ssrc = 0;
    std::vector<std::function<void()>> endWaiters;
};

CallSession::CallSession(uint64_t lobbyId, uint64_t selfId, std::shared_ptr<CallEnvironment> env,
                         std::shared_ptr<CallControls> controls)
    : statusChanged(env->queue),
      participantChanged(env->queue),
      voiceStateChanged(env->queue),
      speakingChanged(env->queue),
      encryptionChanged(env->queue),
      lobbyId_(lobbyId),
      selfId_(selfId),
      env_(std::move(env)),
      controls_(std::move(controls)),
      io_(std::make_unique<Io>(env_->io)) {}

CallSession::~CallSession() = default;

// ---- any thread ------------------------------------------------------------------------------------------

e2ee::DaveEncryptionState CallSession::Encryption() const {
    std::lock_guard lock(mutex_);
    return encryption_;
}

std::string CallSession::PrivacyCode() const {
    std::lock_guard lock(mutex_);
    return privacyCode_;
}

e2ee::DecryptStats CallSession::DecryptStatsFor(uint64_t userId) const {
    std::shared_ptr<const e2ee::DaveFrameTransform> cryptor;
    {
        std::lock_guard lock(mutex_);
        cryptor = counters_;
    }
    return cryptor ? cryptor->StatsFor(userId) : e2ee::DecryptStats{};
}

std::string CallSession::ParticipantFingerprint(uint64_t userId) const {
    std::vector<uint8_t> own, theirs;
    {
        std::lock_guard lock(mutex_);
        auto self = signatureKeys_.find(selfId_);
        auto other = signatureKeys_.find(userId);
        if (userId == selfId_ || self == signatureKeys_.end() || other == signatureKeys_.end()) return {};
        own = self->second;
        theirs = other->second;
        auto known = fingerprints_.find(userId);
        if (known != fingerprints_.end() && known->second.own == own && known->second.theirs == theirs)
            return known->second.digits;
    }
    // scrypt outside the lock: the session's other readers (and the I/O thread) never wait for it.
    std::string digits = e2ee::DisplayableFingerprint(selfId_, own, userId, theirs);
    std::lock_guard lock(mutex_);
    fingerprints_[userId] = KnownFingerprint{std::move(own), std::move(theirs), digits};
    return digits;
}

uint64_t CallSession::FramesEncrypted() const {
    std::shared_ptr<const e2ee::DaveFrameTransform> cryptor;
    {
        std::lock_guard lock(mutex_);
        cryptor = counters_;
    }
    return cryptor ? cryptor->FramesEncrypted() : 0;
}

std::vector<uint64_t> CallSession::Participants() const {
    std::lock_guard lock(mutex_);
    std::vector<uint64_t> ids;
    for (const auto &[id, state] : participants_) ids.push_back(id);
    return ids;
}

std::optional<VoiceStateRecord> CallSession::VoiceState(uint64_t userId) const {
    std::lock_guard lock(mutex_);
    auto it = participants_.find(userId);
    if (it == participants_.end()) return std::nullopt;
    return it->second;
}

void CallSession::SelfStateChanged() {
    env_->post([weak = weak_from_this()] {
        if (auto self = weak.lock()) self->SendSelfState();
    });
}

void CallSession::ReleaseRegistrations() {
    statusChanged.Set({});
    participantChanged.Set({});
    voiceStateChanged.Set({});
    speakingChanged.Set({});
    encryptionChanged.Set({});
}

uint64_t CallSession::PacketsSent() const {
    auto media = media_.load();
    return media ? media->PacketsSent() : 0;
}

uint64_t CallSession::PacketsDecoded() const {
    auto media = media_.load();
    return media ? media->PacketsDecoded() : 0;
}

uint64_t CallSession::FramesPlayedFrom(uint64_t userId) const {
    auto media = media_.load();
    return media ? media->FramesPlayedFrom(userId) : 0;
}

// ---- I/O thread ------------------------------------------------------------------------------------------

void CallSession::SetStatus(CallStatus status, CallError error, int32_t detail) {
    if (status_.load() == status && error == CallError::None) return;
    status_.store(status);
    if (status == CallStatus::Disconnected) ended_.store(true);  // before the event: handles read invalid in it
    std::string line = "call " + std::to_string(lobbyId_) + ": " + ToString(status);
    if (error != CallError::None) line += std::string(" (") + ToString(error) + ", " + std::to_string(detail) + ")";
    env_->log(error == CallError::None ? LoggingSeverity::Info : LoggingSeverity::Warning, std::move(line));
    statusChanged.Post(status, error, detail);
}

void CallSession::Begin(const std::vector<VoiceStateRecord> &seed) {
    for (const auto &state : seed) {
        if (state.channelId == lobbyId_ && state.userId != selfId_) UpdateParticipant(state);
    }
    SetStatus(CallStatus::Joining);
    const json op4 = {{"guild_id", nullptr},
                      {"channel_id", std::to_string(lobbyId_)},
                      {"self_mute", controls_->EffectiveMute()},
                      {"self_deaf", controls_->EffectiveDeaf()}};
    if (!env_->sendVoiceStateUpdate(op4)) {
        env_->log(LoggingSeverity::Warning, "call " + std::to_string(lobbyId_) + ": the gateway is not connected");
        return Fail(CallError::SignalingConnectionFailed, 0);
    }
    io_->joinTimer.expires_after(std::chrono::milliseconds(env_->joinTimeoutMs));
    io_->joinTimer.async_wait([weak = weak_from_this()](const boost::system::error_code &ec) {
        if (ec) return;
        auto self = weak.lock();
        if (self && self->Status() == CallStatus::Joining) self->Fail(CallError::JoinTimeout, 0);
    });
}

void CallSession::UpdateParticipant(const VoiceStateRecord &state) {
    bool added = false, removed = false, changed = false;
    {
        std::lock_guard lock(mutex_);
        auto it = participants_.find(state.userId);
        if (state.channelId != lobbyId_) {
            if (it != participants_.end()) {
                participants_.erase(it);
                removed = true;
            }
        } else if (it == participants_.end()) {
            participants_.emplace(state.userId, state);
            added = true;
        } else {
            changed = it->second.selfMute != state.selfMute || it->second.selfDeaf != state.selfDeaf ||
                      it->second.mute != state.mute || it->second.deaf != state.deaf;
            it->second = state;
        }
    }
    if (added || removed) participantChanged.Post(state.userId, added);
    if (changed) voiceStateChanged.Post(state.userId);
}

void CallSession::OnVoiceState(const VoiceStateRecord &state) {
    if (ended_.load()) return;
    if (state.userId == selfId_) {
        if (state.channelId == lobbyId_) {
            io_->sessionId = state.sessionId;
            // We count as a participant from the platform's point of view as soon as it has our state.
            UpdateParticipant(state);
            MaybeStartGateway();
        } else if (io_->sessionId.empty()) {
            // Not joined yet: this is the leave of an earlier call of ours in this lobby (EndCall, then StartCall
            // again before the platform's answer to the leave arrived). A refused join comes as VOICE_JOIN_REFUSED.
            return;
        } else if (Status() != CallStatus::Disconnecting) {
            // The platform took us out of the call (removed from the lobby, moved, or our own leave elsewhere).
            UpdateParticipant(state);
            Fail(Status() == CallStatus::Joining ? CallError::Forbidden : CallError::SignalingUnexpectedClose, 0);
        }
        return;
    }
    UpdateParticipant(state);
}

void CallSession::OnVoiceServer(const std::string &token, const std::optional<std::string> &endpoint) {
    if (ended_.load() || Status() == CallStatus::Disconnecting) return;
    if (!endpoint || endpoint->empty()) {
        // The voice server went away: keep the call, a new VOICE_SERVER_UPDATE follows (or the join times out).
        env_->log(LoggingSeverity::Warning,
                  "call " + std::to_string(lobbyId_) + ": voice server gone, waiting for a new one");
        return;
    }
    const bool changed = io_->haveServer && (io_->token != token || io_->endpoint != *endpoint);
    io_->token = token;
    io_->endpoint = *endpoint;
    io_->haveServer = true;
    if (changed && io_->gateway) {
        // A new server or token: the old voice session is void; connect again from scratch.
        io_->gateway.reset();
        if (Status() != CallStatus::Joining) SetStatus(CallStatus::Reconnecting);
    }
    MaybeStartGateway();
}

void CallSession::OnJoinRefused() {
    if (!ended_.load() && Status() == CallStatus::Joining) Fail(CallError::Forbidden, 0);
}

void CallSession::MaybeStartGateway() {
    if (io_->gateway || !io_->haveServer || io_->sessionId.empty()) return;
    if (Status() == CallStatus::Disconnecting || ended_.load()) return;
    io_->joinTimer.cancel();
    VoiceGatewayConfig config;
    config.endpoint = io_->endpoint;
    config.secure = env_->secureGateway;
    config.serverId = lobbyId_;
    config.userId = selfId_;
    config.sessionId = io_->sessionId;
    config.token = io_->token;
    config.maxDaveProtocolVersion = e2ee::dave::kProtocolVersion;
    VoiceGatewayEvents events;
    auto weak = weak_from_this();
    StartDaveSession();
    events.daveJson = [weak](int op, const nlohmann::json &d) {
        if (auto self = weak.lock(); self && self->io_->dave) self->io_->dave->OnJson(op, d);
    };
    events.daveBinary = [weak](uint8_t op, std::vector<uint8_t> payload) {
        auto self = weak.lock();
        if (!self || !self->io_->dave) return;
        if (op != 25 && op != 27 && op != 29 && op != 30) {
            return self->env_->log(LoggingSeverity::Warning, "call " + std::to_string(self->lobbyId_) +
                                                                 ": ignoring binary voice op " + std::to_string(op));
        }
        self->io_->dave->OnBinary(static_cast<e2ee::dave::Op>(op), payload);
    };
    events.ready = [weak](const VoiceReady &ready) {
        if (auto self = weak.lock()) self->OnReady(ready.ssrc, ready.ip, ready.port, ready.modes);
    };
    events.sessionDescription = [weak](const std::string &mode, const std::array<uint8_t, 32> &key, int daveVersion) {
        if (auto self = weak.lock()) self->OnSessionDescription(mode, key, daveVersion);
    };
    events.speaking = [weak](uint64_t userId, uint32_t ssrc, uint32_t) {
        if (auto self = weak.lock()) self->controls_->MapSsrc(ssrc, userId);
    };
    events.interrupted = [weak](int code) {
        auto self = weak.lock();
        if (!self) return;
        self->env_->log(LoggingSeverity::Warning, "call " + std::to_string(self->lobbyId_) +
                                                      ": voice connection dropped (" + std::to_string(code) +
                                                      "), reconnecting");
        self->SetStatus(CallStatus::Reconnecting);
    };
    events.resumed = [weak] {
        auto self = weak.lock();
        if (self && self->io_->everConnected) self->SetStatus(CallStatus::Connected);
    };
    events.ended = [weak](int code, bool everReady) {
        if (auto self = weak.lock())
            self->Fail(everReady ? CallError::SignalingUnexpectedClose : CallError::SignalingConnectionFailed, code);
    };
    auto log = [env = env_](int severity, std::string line) {
        env->log(static_cast<LoggingSeverity>(severity), std::move(line));
    };
    if (Status() == CallStatus::Joining) SetStatus(CallStatus::Connecting);
    io_->gateway = std::make_unique<VoiceGateway>(env_->io, env_->websockets, std::move(config), std::move(events),
                                                  std::move(log));
    io_->gateway->Start();
}

void CallSession::OnReady(uint32_t ssrc, const std::string &ip, uint16_t port, const std::vector<std::string> &modes) {
    if (Status() == CallStatus::Connecting) SetStatus(CallStatus::SignalingConnected);
    const auto mode = ChooseMode(modes);
    if (!mode) {
        env_->log(LoggingSeverity::Error,
                  "call " + std::to_string(lobbyId_) + ": the voice server offers no encryption mode we support");
        return Fail(CallError::VoiceConnectionFailed, 0);
    }
    io_->ssrc = ssrc;
    controls_->MapSsrc(ssrc, selfId_);
    if (!udp_) udp_ = std::make_shared<UdpTransport>(env_->threads);
    auto weak = weak_from_this();
    auto discovered = [weak, mode = *mode](std::optional<DiscoveredAddress> address) {
        // Network thread: hop to the I/O thread, where the gateway lives.
        auto self = weak.lock();
        if (!self) return;
        self->env_->post([weak, mode, address] {
            auto call = weak.lock();
            if (!call || call->ended_.load() || !call->io_->gateway) return;
            if (!address) {
                call->env_->log(LoggingSeverity::Error,
                                "call " + std::to_string(call->lobbyId_) + ": UDP IP discovery got no answer");
                return call->Fail(CallError::VoiceConnectionFailed, 0);
            }
            call->io_->gateway->SelectProtocol(address->address, address->port, mode);
        });
    };
    auto packet = [weak](std::span<const uint8_t> datagram) {
        auto self = weak.lock();
        if (!self) return;
        if (auto media = self->media_.load()) media->OnDatagram(datagram);
    };
    udp_->Open(ip, port, ssrc, std::move(discovered), std::move(packet));
}

void CallSession::StartDaveSession() {
    if (io_->dave) return;
    io_->frameCryptor = std::make_shared<e2ee::DaveFrameTransform>(selfId_, io_->clock);
    {
        std::lock_guard lock(mutex_);
        counters_ = io_->frameCryptor;
    }
    io_->daveGroup = std::make_unique<e2ee::MlsDaveGroup>(selfId_, lobbyId_);
    auto weak = weak_from_this();
    e2ee::DaveSessionCallbacks callbacks;
    callbacks.sendBinary = [weak](std::vector<uint8_t> message) {
        if (auto self = weak.lock(); self && self->io_->gateway) self->io_->gateway->SendDaveBinary(message);
    };
    callbacks.sendJson = [weak](int op, const nlohmann::json &d) {
        if (auto self = weak.lock(); self && self->io_->gateway) self->io_->gateway->SendDaveJson(op, d);
    };
    callbacks.stateChanged = [weak](const e2ee::DaveEncryptionState &state) {
        if (auto self = weak.lock()) self->OnEncryptionState(state);
    };
    callbacks.warn = [weak](const std::string &message) {
        if (auto self = weak.lock())
            self->env_->log(LoggingSeverity::Warning, "call " + std::to_string(self->lobbyId_) + ": " + message);
    };
    io_->dave = std::make_unique<e2ee::DaveSession>(*io_->daveGroup, *io_->frameCryptor, std::move(callbacks));
}

void CallSession::OnEncryptionState(const e2ee::DaveEncryptionState &state) {
    std::string code = io_->dave ? io_->dave->PrivacyCode() : std::string();
    // The members' signature keys of this epoch, for fingerprints computed on the caller's thread (scrypt is slow).
    std::map<uint64_t, std::vector<uint8_t>> keys;
    if (io_->daveGroup && state.epoch != 0) {
        for (uint64_t userId : io_->daveGroup->MemberUserIds()) {
            if (auto key = io_->daveGroup->MemberSignatureKey(userId)) keys.emplace(userId, std::move(*key));
        }
    }
    {
        std::lock_guard lock(mutex_);
        encryption_ = state;
        privacyCode_ = std::move(code);
        signatureKeys_ = std::move(keys);
        std::erase_if(fingerprints_,
                      [this](const auto &known) { return !signatureKeys_.contains(known.first); });  // left
    }
    env_->log(LoggingSeverity::Info,
              "call " + std::to_string(lobbyId_) + ": DAVE protocol " + std::to_string(state.protocolVersion) +
                  ", epoch " + std::to_string(state.epoch) + (state.transitionPending ? ", transition pending" : "") +
                  (state.passthrough ? ", passthrough" : ""));
    encryptionChanged.Post(static_cast<int32_t>(state.protocolVersion), state.epoch, state.transitionPending,
                           state.passthrough);
}

void CallSession::OnSessionDescription(const std::string &mode, const std::array<uint8_t, 32> &key, int daveVersion) {
    if (!IsSupportedMode(mode)) {
        env_->log(LoggingSeverity::Error,
                  "call " + std::to_string(lobbyId_) + ": the server chose mode " + mode + ", which we do not speak");
        return Fail(CallError::VoiceConnectionFailed, 0);
    }
    io_->dave->OnSessionDescription(daveVersion);
    auto weak = weak_from_this();
    CallMediaEvents events;
    events.selfSpeaking = [weak](bool speaking) {  // audio thread
        auto self = weak.lock();
        if (!self) return;
        self->speakingChanged.Post(self->selfId_, speaking);
        self->env_->post([weak, speaking] {
            auto call = weak.lock();
            if (call && call->io_->gateway) call->io_->gateway->SetSpeaking(speaking ? 1u : 0u, call->io_->ssrc);
        });
    };
    events.remoteSpeaking = [weak](uint64_t userId, bool speaking) {  // audio thread
        if (auto self = weak.lock()) self->speakingChanged.Post(userId, speaking);
    };
    auto media = CallMedia::Create(mode, key, io_->ssrc, udp_, controls_, std::move(events), io_->frameCryptor);
    if (!media) return Fail(CallError::VoiceConnectionFailed, 0);
    // Speaking once before any audio lets the server tie our SSRC to us (the protocol asks for it).
    io_->gateway->SetSpeaking(0, io_->ssrc);
    if (auto old = media_.exchange(media)) {
        env_->engine.Detach(old.get());
        media->ContinueStreamOf(std::move(old));
    }
    env_->engine.Attach(media);
    io_->everConnected = true;
    SetStatus(CallStatus::Connected);
    SendSelfState();
}

void CallSession::SendSelfState() {
    if (Status() != CallStatus::Connected) return;  // applied on connect (Begin sent the values of that moment)
    const bool mute = controls_->EffectiveMute(), deaf = controls_->EffectiveDeaf();
    std::optional<VoiceStateRecord> mine = VoiceState(selfId_);
    if (mine && mine->selfMute == mute && mine->selfDeaf == deaf) return;
    env_->sendVoiceStateUpdate(
        {{"guild_id", nullptr}, {"channel_id", std::to_string(lobbyId_)}, {"self_mute", mute}, {"self_deaf", deaf}});
}

void CallSession::Fail(CallError error, int32_t detail) {
    if (ended_.load()) return;
    Release();
    env_->sendVoiceStateUpdate({{"guild_id", nullptr},
                                {"channel_id", nullptr},
                                {"lobby_id", std::to_string(lobbyId_)},
                                {"self_mute", false},
                                {"self_deaf", false}});
    SetStatus(CallStatus::Disconnected, error, detail);
    for (auto &done : std::exchange(io_->endWaiters, {})) done();
}

void CallSession::Release() {
    io_->joinTimer.cancel();
    if (io_->gateway) io_->gateway->Stop();
    io_->gateway.reset();
    if (auto media = media_.exchange(nullptr)) env_->engine.Detach(media.get());
    if (udp_) udp_->Close();
}

void CallSession::End(std::function<void()> done) {
    if (ended_.load()) {
        if (done) done();
        return;
    }
    if (done) io_->endWaiters.push_back(std::move(done));
    if (Status() == CallStatus::Disconnecting) return;
    SetStatus(CallStatus::Disconnecting);
    Release();
    env_->sendVoiceStateUpdate({{"guild_id", nullptr},
                                {"channel_id", nullptr},
                                {"lobby_id", std::to_string(lobbyId_)},
                                {"self_mute", false},
                                {"self_deaf", false}});
    {
        std::lock_guard lock(mutex_);
        participants_.clear();
    }
    SetStatus(CallStatus::Disconnected);
    for (auto &waiter : std::exchange(io_->endWaiters, {})) waiter();
}

void CallSession::Shutdown() {
    ended_.store(true);
    Release();
    io_->endWaiters.clear();
}

void CallSession::DropVoiceSocketForTest() {
    if (io_->gateway) io_->gateway->DropForTest();
}

}  // namespace svcpp::core::voice
