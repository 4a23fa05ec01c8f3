#include "voice/voice_service.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"
#include "runtime/abi_error.hpp"
#include "voice/audio_devices.hpp"
#include "voice/audio_engine.hpp"
#include "voice/media/volume.hpp"

namespace svcpp::core::voice {

namespace {

/** Queues a one-shot callback without a ClientResult: it runs exactly once, in every mode (even at Drop). */
template <class... Params, class... Args>
void PostOnce(CallbackQueue &queue, Callback<void(Params...)> &&cb, Args... args) {
    if (!cb) return;
    // The job is the callback's only owner, so the user data is freed where the job ends: on a host thread.
    queue.Post(Job{[shared = std::make_shared<Callback<void(Params...)>>(std::move(cb)), args...](JobMode) {
                       shared->fn(args...);
                   },
                   true});
}

}  // namespace

VoiceService::VoiceService(CallbackQueue &queue, Operations &operations, VoiceHost host)
    : queue_(queue),
      operations_(operations),
      host_(std::move(host)),
      log_(queue),
      devices_(std::make_shared<AudioDevices>()) {
    AudioEngineEvents events;
    events.noAudioInput = [this](bool detected) { noAudioInput_.Post(detected); };
    events.log = [this](int severity, std::string line) {
        Log(static_cast<LoggingSeverity>(severity), std::move(line));
    };
    engine_ = std::make_unique<AudioEngine>(devices_, host_.threads, std::move(events));
    env_ = std::shared_ptr<CallEnvironment>(
        new CallEnvironment{queue_, *host_.io, host_.post, host_.websockets, true, host_.sendGatewayOp4,
                            [this](LoggingSeverity severity, std::string line) { Log(severity, std::move(line)); },
                            host_.threads, *engine_});
}

VoiceService::~VoiceService() { Shutdown(); }

// ---- calls ----------------------------------------------------------------------------------------------

std::shared_ptr<CallSession> VoiceService::Active(uint64_t lobbyId) const {
    std::lock_guard lock(mutex_);
    auto it = calls_.find(lobbyId);
    if (it == calls_.end() || it->second->Ended()) return nullptr;
    return it->second;
}

Call VoiceService::StartCall(uint64_t lobbyId, ClientUserAudioReceivedCallback &&received,
                             ClientUserAudioCapturedCallback &&captured) {
    if (!host_.ready())
        throw AbiError(Errc::InvalidArgument, "StartCall: the client is not Ready (call Connect and wait for Ready)");
    if (!host_.isLobbyMember(lobbyId)) {
        throw AbiError(Errc::InvalidArgument,
                       "StartCall: this user is not a member of lobby " + std::to_string(lobbyId));
    }
    auto controls = std::make_shared<CallControls>(clientControls_);
    std::shared_ptr<CallSession> session;
    std::vector<VoiceStateRecord> seed;
    {
        std::lock_guard lock(mutex_);
        if (auto it = calls_.find(lobbyId); it != calls_.end() && !it->second->Ended()) {
            throw AbiError(Errc::InvalidArgument, "StartCall: already in the call of lobby " + std::to_string(lobbyId) +
                                                      " (GetCall returns it)");
        }
        // Taken only now that nothing can fail: a rejected call keeps the host's user data with the host.
        controls->received = Share(std::move(received));
        controls->captured = Share(std::move(captured));
        env_->secureGateway = host_.gatewaySecure();
        session = std::make_shared<CallSession>(lobbyId, host_.currentUserId(), env_, controls);
        if (auto it = calls_.find(lobbyId); it != calls_.end()) retired_.push_back(std::move(it->second));
        calls_[lobbyId] = session;
        if (auto states = lobbyStates_.find(lobbyId); states != lobbyStates_.end()) {
            for (const auto &[id, state] : states->second) seed.push_back(state);
        }
    }
    // Joining is visible at once (the status getter), the wire work happens on the I/O thread.
    host_.post([session, seed] { session->Begin(seed); });
    Log(LoggingSeverity::Info, "starting the call of lobby " + std::to_string(lobbyId));
    return Call(session);
}

std::optional<std::vector<VoiceStateRecord>> VoiceService::LobbyCall(uint64_t lobbyId) const {
    std::lock_guard lock(mutex_);
    auto states = lobbyStates_.find(lobbyId);
    if (states == lobbyStates_.end() || states->second.empty()) return std::nullopt;
    std::vector<VoiceStateRecord> inCall;
    for (const auto &[id, state] : states->second) inCall.push_back(state);
    return inCall;
}

std::optional<Call> VoiceService::GetCall(uint64_t lobbyId) const {
    auto session = Active(lobbyId);
    if (!session) return std::nullopt;
    return Call(session);
}

std::vector<Call> VoiceService::GetCalls() const {
    std::lock_guard lock(mutex_);
    std::vector<Call> out;
    for (const auto &[id, session] : calls_) {
        if (!session->Ended()) out.emplace_back(session);
    }
    return out;
}

void VoiceService::Retire(uint64_t lobbyId) {
    std::lock_guard lock(mutex_);
    auto it = calls_.find(lobbyId);
    if (it == calls_.end() || !it->second->Ended()) return;
    retired_.push_back(std::move(it->second));
    calls_.erase(it);
}

void VoiceService::EndCall(uint64_t lobbyId, ClientEndCallCallback &&cb) {
    auto shared = std::make_shared<ClientEndCallCallback>(std::move(cb));
    host_.post([this, lobbyId, shared]() mutable {
        auto session = Active(lobbyId);
        if (session) session->End({});
        Retire(lobbyId);
        PostOnce(queue_, std::move(*shared));
    });
}

void VoiceService::EndCalls(ClientEndCallsCallback &&cb) {
    auto shared = std::make_shared<ClientEndCallsCallback>(std::move(cb));
    host_.post([this, shared]() mutable {
        std::vector<std::shared_ptr<CallSession>> sessions;
        {
            std::lock_guard lock(mutex_);
            for (auto &[id, session] : calls_) sessions.push_back(session);
        }
        for (auto &session : sessions) {
            session->End({});
            Retire(session->LobbyId());
        }
        PostOnce(queue_, std::move(*shared));
    });
}

void VoiceService::SetSelfMuteAll(bool mute) {
    clientControls_->muteAll.store(mute);
    for (auto &call : GetCalls()) {
        if (auto s = Active(call.GetChannelId())) s->SelfStateChanged();
    }
}

void VoiceService::SetSelfDeafAll(bool deaf) {
    clientControls_->deafAll.store(deaf);
    for (auto &call : GetCalls()) {
        if (auto s = Active(call.GetChannelId())) s->SelfStateChanged();
    }
}

bool VoiceService::DropVoiceSocketForTest(uint64_t lobbyId) {
    auto session = Active(lobbyId);
    if (!session) return false;
    host_.post([session] { session->DropVoiceSocketForTest(); });
    return true;
}

// ---- dispatches (I/O thread) ------------------------------------------------------------------------------

void VoiceService::Register(DispatchTable &table) {
    // One handler per dispatch type: the table routes by type, so no handler compares type strings again.
    const auto on = [this, &table](const char *type, void (VoiceService::*handler)(const nlohmann::json &)) {
        table.On(type, [this, handler](std::string_view, const nlohmann::json &data) { (this->*handler)(data); });
    };
    on("READY", &VoiceService::OnReady);  // the voice states of the user's lobbies
    on("VOICE_STATE_UPDATE", &VoiceService::OnVoiceStateUpdate);
    on("VOICE_SERVER_UPDATE", &VoiceService::OnVoiceServerUpdate);
    on("VOICE_JOIN_REFUSED", &VoiceService::OnJoinRefused);  // platform/PROTOCOL.md §13.2
    on("LOBBY_DELETE", &VoiceService::OnLobbyDelete);        // ends that lobby's call
}

void VoiceService::OnReady(const nlohmann::json &data) {
    // A new gateway session: the voice states it carries (if any) replace what we knew.
    std::lock_guard lock(mutex_);
    lobbyStates_.clear();
    if (const auto &states = wire::Member(data, "voice_states"); states.is_array()) {
        for (const auto &item : states) {
            if (auto state = ParseVoiceState(item); state && state->channelId)
                lobbyStates_[state->channelId][state->userId] = *state;
        }
    }
}

void VoiceService::OnVoiceStateUpdate(const nlohmann::json &data) {
    auto state = ParseVoiceState(data);
    if (!state) return;
    // Which lobby did this user leave or join? channel_id null = left whatever call they were in.
    std::vector<uint64_t> touched;
    bool added = false;
    {
        std::lock_guard lock(mutex_);
        for (auto &[lobby, members] : lobbyStates_) {
            // A leave names its lobby (lobby_id); one without it leaves every call of the user.
            const bool named = !state->channelId && state->lobbyId;
            if (lobby != state->channelId && (!named || lobby == state->lobbyId) && members.erase(state->userId)) {
                touched.push_back(lobby);
            }
        }
        if (state->channelId) {
            added = lobbyStates_[state->channelId].insert_or_assign(state->userId, *state).second;
        }
    }
    for (uint64_t lobby : touched) {
        participantChanged_.Post(lobby, state->userId, false);
        if (auto session = Active(lobby)) {
            VoiceStateRecord left = *state;
            left.channelId = 0;
            session->OnVoiceState(left);
            if (session->Ended()) Retire(lobby);
        }
    }
    if (state->channelId) {
        if (added) participantChanged_.Post(state->channelId, state->userId, true);
        if (auto session = Active(state->channelId)) {
            session->OnVoiceState(*state);
            if (session->Ended()) Retire(state->channelId);
        }
    }
}

void VoiceService::OnVoiceServerUpdate(const nlohmann::json &data) {
    uint64_t lobby = wire::Snowflake(data, "channel_id");
    if (lobby == 0) lobby = wire::Snowflake(data, "lobby_id");
    auto session = Active(lobby);
    if (!session) return;
    session->OnVoiceServer(wire::String(data, "token"), wire::OptionalString(data, "endpoint"));
    if (session->Ended()) Retire(lobby);
}

// platform/PROTOCOL.md §13.2: not a member, call full, unknown lobby.
void VoiceService::OnJoinRefused(const nlohmann::json &data) {
    const uint64_t lobby = wire::Snowflake(data, "lobby_id");
    Log(LoggingSeverity::Warning,
        "the platform refused the call of lobby " + std::to_string(lobby) + ": " + wire::String(data, "message"));
    if (auto session = Active(lobby)) {
        session->OnJoinRefused();
        Retire(lobby);
    }
}

void VoiceService::OnLobbyDelete(const nlohmann::json &data) {
    const uint64_t lobby = wire::Snowflake(data, "id");
    {
        std::lock_guard lock(mutex_);
        lobbyStates_.erase(lobby);
    }
    if (auto session = Active(lobby)) {
        session->End({});
        Retire(lobby);
    }
}

void VoiceService::OnGatewayGone() {
    std::vector<std::shared_ptr<CallSession>> sessions;
    {
        std::lock_guard lock(mutex_);
        for (auto &[id, session] : calls_) sessions.push_back(session);
        lobbyStates_.clear();
    }
    for (auto &session : sessions) {
        session->End({});
        Retire(session->LobbyId());
    }
}

// ---- devices and processing -----------------------------------------------------------------------------

void VoiceService::GetInputDevices(ClientGetInputDevicesCallback &&cb) {
    PostOnce(queue_, std::move(cb), devices_->Inputs());
}
void VoiceService::GetOutputDevices(ClientGetOutputDevicesCallback &&cb) {
    PostOnce(queue_, std::move(cb), devices_->Outputs());
}
void VoiceService::GetCurrentInputDevice(ClientGetCurrentInputDeviceCallback &&cb) {
    PostOnce(queue_, std::move(cb), devices_->DescribeInput(engine_->InputId()));
}
void VoiceService::GetCurrentOutputDevice(ClientGetCurrentOutputDeviceCallback &&cb) {
    PostOnce(queue_, std::move(cb), devices_->DescribeOutput(engine_->OutputId()));
}

void VoiceService::SetInputDevice(std::string deviceId, ClientSetInputDeviceCallback &&cb) {
    if (!devices_->IsKnownInput(deviceId))
        throw AbiError(Errc::InvalidArgument, "deviceId: no input device has id \"" + deviceId + "\"");
    auto op = Operation<void(const ClientResult &)>::Begin(operations_, std::move(cb));
    // A file device is checked now, so a file that cannot be read fails the call and changes nothing.
    std::string error;
    if (deviceId.rfind(kFileDevicePrefix, 0) == 0 && !devices_->OpenCapture(deviceId, &error).stream) {
        return op->Complete(FailureResult(ErrorType::ValidationError, "input device " + deviceId + ": " + error));
    }
    engine_->SelectInput(deviceId);
    Log(LoggingSeverity::Info, "input device: " + deviceId);
    op->Complete(ClientResult{});
}

void VoiceService::SetOutputDevice(std::string deviceId, ClientSetOutputDeviceCallback &&cb) {
    if (!devices_->IsKnownOutput(deviceId))
        throw AbiError(Errc::InvalidArgument, "deviceId: no output device has id \"" + deviceId + "\"");
    auto op = Operation<void(const ClientResult &)>::Begin(operations_, std::move(cb));
    engine_->SelectOutput(deviceId);
    Log(LoggingSeverity::Info, "output device: " + deviceId);
    op->Complete(ClientResult{});
}

void VoiceService::SetDeviceChangeCallback(ClientDeviceChangeCallback &&cb) {
    const bool on = static_cast<bool>(cb);
    deviceChange_.Set(std::move(cb));
    if (!on) return devices_->SetDeviceChangeCallback({});
    devices_->SetDeviceChangeCallback(
        [this](const std::vector<AudioDeviceInfo> &inputs, const std::vector<AudioDeviceInfo> &outputs) {
            std::vector<AudioDevice> in, out;
            for (const auto &d : inputs) in.push_back(AudioDevice{d.id, d.name, d.isDefault});
            for (const auto &d : outputs) out.push_back(AudioDevice{d.id, d.name, d.isDefault});
            deviceChange_.Post(in, out);
        });
}

float VoiceService::GetInputVolume() const { return engine_->Input().Get(); }

void VoiceService::SetInputVolume(float volume) {
    if (!IsValidVolume(volume, kMaxInputVolume))
        throw AbiError(Errc::InvalidArgument, "inputVolume: must be within 0..100");
    engine_->Input().Set(volume);
}

float VoiceService::GetOutputVolume() const { return engine_->Output().OutputVolume(); }

void VoiceService::SetOutputVolume(float volume) {
    if (!IsValidVolume(volume, kMaxPlaybackVolume))
        throw AbiError(Errc::InvalidArgument, "outputVolume: must be within 0..200");
    engine_->Output().SetOutputVolume(volume);
}

void VoiceService::SetNoAudioInputThreshold(float dbfs) {
    if (!engine_->NoAudioInput().SetThreshold(dbfs))
        throw AbiError(Errc::InvalidArgument, "dBFSThreshold: must be within -100..100");
}

void VoiceService::SetAutomaticGainControl(bool on) {
    auto settings = engine_->Processing();
    settings.automaticGainControl = on;
    engine_->SetProcessing(settings);
}

void VoiceService::SetEchoCancellation(bool on) {
    auto settings = engine_->Processing();
    settings.echoCancellation = on;
    engine_->SetProcessing(settings);
}

void VoiceService::SetNoiseSuppression(bool on) {
    auto settings = engine_->Processing();
    settings.noiseSuppression = on;
    engine_->SetProcessing(settings);
}

void VoiceService::SetNoiseCancellation(bool on) {
    auto settings = engine_->Processing();
    settings.highNoiseSuppression = on;
    engine_->SetProcessing(settings);
}

void VoiceService::SetAecDump(bool on) {
    std::string dir;
    {
        std::lock_guard lock(mutex_);
        aecDump_ = on;
        dir = logDir_;
    }
    if (on && dir.empty())
        Log(LoggingSeverity::Warning, "SetAecDump: no voice log directory (SetVoiceLogDir): nothing is written");
    engine_->SetAecDump(on, dir);
}

bool VoiceService::SetVoiceLogDir(std::string path, LoggingSeverity minSeverity) {
    // The voice log is its own file next to the client's: svcpp-voice.log.
    if (!log_.SetFile(path, minSeverity, "svcpp-voice.log")) return false;
    bool dump;
    {
        std::lock_guard lock(mutex_);
        logDir_ = path;
        dump = aecDump_;
    }
    if (dump) engine_->SetAecDump(true, path);
    return true;
}

uint64_t VoiceService::AddVoiceLogCallback(LoggingSeverity minSeverity, ClientLogCallback &&cb) {
    return log_.Add(minSeverity, std::move(cb), host_.nextToken());
}

void VoiceService::SetOpusHardwareCoding(bool, bool) {
    Log(LoggingSeverity::Verbose, "SetOpusHardwareCoding: software Opus on desktop");
}

// ---- lifecycle ------------------------------------------------------------------------------------------

void VoiceService::ReleaseRegistrations() {
    participantChanged_.Set({});
    noAudioInput_.Set({});
    deviceChange_.Set({});
    devices_->SetDeviceChangeCallback({});
    log_.Clear();
    std::vector<std::shared_ptr<CallSession>> sessions;
    {
        std::lock_guard lock(mutex_);
        for (auto &[id, session] : calls_) sessions.push_back(session);
        sessions.insert(sessions.end(), retired_.begin(), retired_.end());
    }
    for (auto &session : sessions) session->ReleaseRegistrations();
}

void VoiceService::ShutdownOnIo() {
    std::vector<std::shared_ptr<CallSession>> sessions;
    {
        std::lock_guard lock(mutex_);
        for (auto &[id, session] : calls_) sessions.push_back(session);
    }
    for (auto &session : sessions) session->Shutdown();
}

void VoiceService::Shutdown() { engine_->Shutdown(); }

}  // namespace svcpp::core::voice
