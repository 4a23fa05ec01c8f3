// Client: the voice area's methods forward to voice::VoiceService (voice/voice_service.hpp), which owns the calls,
// the audio engine and the devices. Only the wiring lives here: what the service needs from the client.
#include <nlohmann/json.hpp>

#include "client/client_net.hpp"
#include "runtime/abi_error.hpp"
#include "voice/voice_service.hpp"

namespace svcpp::core {

void Client::StartVoice() {
    voice::VoiceHost host;
    host.post = [this](std::function<void()> fn) { OnIo([fn = std::move(fn)](Net &) { fn(); }); };
    host.io = &io_.Executor();
    host.websockets = net_->websockets;
    // Main-gateway op 4 (Voice State Update), sent through the client's gateway session.
    host.sendGatewayOp4 = [this](const nlohmann::json &data) {
        return net_ && net_->session && net_->session->Send(4, data);
    };
    host.gatewaySecure = [this] { return apiBase_.rfind("https:", 0) == 0; };
    host.ready = [this] { return GetStatus() == ClientStatus::Ready; };
    host.currentUserId = [this] { return users_.Cache()->CurrentUserId(); };
    host.isLobbyMember = [this](uint64_t lobbyId) { return lobbies_.Cache()->Contains(lobbyId); };
    host.threads = threads_;
    voice_ = std::make_shared<voice::VoiceService>(queue_, operations_, std::move(host));
}

std::weak_ptr<const voice::LobbyCallReader> Client::LobbyCalls() const {
    return std::shared_ptr<const voice::LobbyCallReader>(voice_);
}

std::optional<Call> Client::StartCall(uint64_t lobbyId) { return voice_->StartCall(lobbyId, {}, {}); }
std::optional<Call> Client::StartCallWithAudioCallbacks(uint64_t lobbyId, ClientUserAudioReceivedCallback &&receivedCb,
                                                        ClientUserAudioCapturedCallback &&capturedCb) {
    return voice_->StartCall(lobbyId, std::move(receivedCb), std::move(capturedCb));
}
std::optional<Call> Client::GetCall(uint64_t channelId) const { return voice_->GetCall(channelId); }
std::vector<Call> Client::GetCalls() const { return voice_->GetCalls(); }
void Client::EndCall(uint64_t channelId, ClientEndCallCallback &&cb) { voice_->EndCall(channelId, std::move(cb)); }
void Client::EndCalls(ClientEndCallsCallback &&cb) { voice_->EndCalls(std::move(cb)); }
void Client::SetVoiceParticipantChangedCallback(ClientVoiceParticipantChangedCallback &&cb) {
    voice_->SetVoiceParticipantChangedCallback(std::move(cb));
}
bool Client::GetSelfMuteAll() const { return voice_->GetSelfMuteAll(); }
void Client::SetSelfMuteAll(bool mute) { voice_->SetSelfMuteAll(mute); }
bool Client::GetSelfDeafAll() const { return voice_->GetSelfDeafAll(); }
void Client::SetSelfDeafAll(bool deaf) { voice_->SetSelfDeafAll(deaf); }
void Client::GetInputDevices(ClientGetInputDevicesCallback &&cb) { voice_->GetInputDevices(std::move(cb)); }
void Client::GetOutputDevices(ClientGetOutputDevicesCallback &&cb) { voice_->GetOutputDevices(std::move(cb)); }
void Client::GetCurrentInputDevice(ClientGetCurrentInputDeviceCallback &&cb) {
    voice_->GetCurrentInputDevice(std::move(cb));
}
void Client::GetCurrentOutputDevice(ClientGetCurrentOutputDeviceCallback &&cb) {
    voice_->GetCurrentOutputDevice(std::move(cb));
}
void Client::SetInputDevice(std::string deviceId, ClientSetInputDeviceCallback &&cb) {
    voice_->SetInputDevice(std::move(deviceId), std::move(cb));
}
void Client::SetOutputDevice(std::string deviceId, ClientSetOutputDeviceCallback &&cb) {
    voice_->SetOutputDevice(std::move(deviceId), std::move(cb));
}
void Client::SetDeviceChangeCallback(ClientDeviceChangeCallback &&cb) {
    voice_->SetDeviceChangeCallback(std::move(cb));
}
float Client::GetInputVolume() const { return voice_->GetInputVolume(); }
void Client::SetInputVolume(float inputVolume) { voice_->SetInputVolume(inputVolume); }
float Client::GetOutputVolume() const { return voice_->GetOutputVolume(); }
void Client::SetOutputVolume(float outputVolume) { voice_->SetOutputVolume(outputVolume); }
void Client::SetNoAudioInputThreshold(float dBFSThreshold) { voice_->SetNoAudioInputThreshold(dBFSThreshold); }
void Client::SetNoAudioInputCallback(ClientNoAudioInputCallback &&cb) {
    voice_->SetNoAudioInputCallback(std::move(cb));
}
void Client::SetAutomaticGainControl(bool on) { voice_->SetAutomaticGainControl(on); }
void Client::SetEchoCancellation(bool on) { voice_->SetEchoCancellation(on); }
void Client::SetNoiseSuppression(bool on) { voice_->SetNoiseSuppression(on); }
void Client::SetNoiseCancellation(bool on) { voice_->SetNoiseCancellation(on); }
// Desktop Opus is always the software codec; the setting exists for source compatibility with mobile code.
void Client::SetOpusHardwareCoding(bool, bool) {
    logger_.Log(LoggingSeverity::Verbose, "SetOpusHardwareCoding: software Opus on desktop");
}
void Client::SetAecDump(bool on) { voice_->SetAecDump(on); }
bool Client::SetVoiceLogDir(std::string path, LoggingSeverity minSeverity) {
    return voice_->SetVoiceLogDir(std::move(path), minSeverity);
}
uint64_t Client::AddVoiceLogCallback(LoggingSeverity minSeverity, ClientLogCallback &&cb) {
    return voice_->AddVoiceLogCallback(minSeverity, std::move(cb), nextToken_.fetch_add(1));
}
// Mobile-only controls: desktop has no OS audio session, route picker or speakerphone.
void Client::SetEngineManagedAudioSession(bool) {}
bool Client::ShowAudioRoutePicker() { return false; }
bool Client::SetSpeakerMode(bool) { return false; }

// Client, Voice and Network threads all live in threads_ (the I/O thread is not a voice thread, but it is the
// one place every SDK thread registers). The value range is a contract (InvalidArgument); the OS's answer is not.
void Client::SetThreadPriority(ClientThread thread, int32_t priority) {
    if (priority < SdkThreads::kMinPriority || priority > SdkThreads::kMaxPriority) {
        throw AbiError(Errc::InvalidArgument, "priority: must be a nice value within -20..19 (lower runs first)");
    }
    threads_->SetPriority(thread, priority);
}

}  // namespace svcpp::core
