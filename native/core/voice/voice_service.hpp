// VoiceService: the voice area of a Client (docs/voice.md). Owns the calls, the lobby voice states, the audio engine
// and devices, the voice log; the generated C layer calls its operations, and the Client feeds it the gateway's
// dispatches.
//
// Threading: public methods from any thread (host threads through the C ABI); On* and Shutdown* from the I/O
// thread, as the Client calls them.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "runtime/dispatch_table.hpp"

#include "generated/callbacks.hpp"
#include "generated/values.hpp"
#include "log/logger.hpp"
#include "runtime/callback_queue.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/operations.hpp"
#include "voice/call.hpp"
#include "threads/sdk_threads.hpp"
#include "voice/call_session.hpp"
#include "voice/lobby_call_reader.hpp"

namespace svcpp::core::voice {

class AudioDevices;
class AudioEngine;

/** What the service needs from its client. */
struct VoiceHost {
    std::function<void(std::function<void()>)> post;  // run on the I/O thread (dropped once the client is torn down)
    const net::ClientExecutor *io = nullptr;          // the client's (net/io_thread.hpp); outlives the service
    net::WebSocketFactory websockets;
    std::function<bool(const nlohmann::json &)> sendGatewayOp4;  // I/O thread: false when not identified
    std::function<bool()> gatewaySecure;                         // the main gateway uses wss://
    std::function<bool()> ready;                                 // Client status Ready
    std::function<uint64_t()> currentUserId;
    std::function<bool(uint64_t lobbyId)> isLobbyMember;
    std::shared_ptr<SdkThreads> threads;  // the client's: the voice threads enter it (name, pinning, priority)
    // The client's registration tokens: one sequence for log and voice log callbacks (Client_RemoveCallback).
    std::function<uint64_t()> nextToken;
};

class VoiceService : public LobbyCallReader, public std::enable_shared_from_this<VoiceService> {
  public:
    VoiceService(CallbackQueue &queue, Operations &operations, VoiceHost host);
    ~VoiceService();

    // calls (AbiError on misuse: not Ready, not a member, already in that call)
    Call StartCall(uint64_t lobbyId, ClientUserAudioReceivedCallback &&received,
                   ClientUserAudioCapturedCallback &&captured);
    // The C ABI's Client_StartCall*: a misuse throws before anything is returned, so the optional is never empty.
    std::optional<Call> StartCall(uint64_t lobbyId) { return StartCall(lobbyId, {}, {}); }
    std::optional<Call> StartCallWithAudioCallbacks(uint64_t lobbyId, ClientUserAudioReceivedCallback &&received,
                                                    ClientUserAudioCapturedCallback &&captured) {
        return StartCall(lobbyId, std::move(received), std::move(captured));
    }
    std::optional<Call> GetCall(uint64_t lobbyId) const;
    std::vector<Call> GetCalls() const;
    void EndCall(uint64_t lobbyId, ClientEndCallCallback &&cb);
    void EndCalls(ClientEndCallsCallback &&cb);
    void SetVoiceParticipantChangedCallback(ClientVoiceParticipantChangedCallback &&cb) {
        participantChanged_.Set(std::move(cb));
    }
    bool GetSelfMuteAll() const { return clientControls_->muteAll.load(); }
    void SetSelfMuteAll(bool mute);
    bool GetSelfDeafAll() const { return clientControls_->deafAll.load(); }
    void SetSelfDeafAll(bool deaf);
    std::optional<std::vector<VoiceStateRecord>> LobbyCall(uint64_t lobbyId) const override;

    // devices and processing
    void GetInputDevices(ClientGetInputDevicesCallback &&cb);
    void GetOutputDevices(ClientGetOutputDevicesCallback &&cb);
    void GetCurrentInputDevice(ClientGetCurrentInputDeviceCallback &&cb);
    void GetCurrentOutputDevice(ClientGetCurrentOutputDeviceCallback &&cb);
    void SetInputDevice(std::string deviceId, ClientSetInputDeviceCallback &&cb);
    void SetOutputDevice(std::string deviceId, ClientSetOutputDeviceCallback &&cb);
    void SetDeviceChangeCallback(ClientDeviceChangeCallback &&cb);
    float GetInputVolume() const;
    void SetInputVolume(float volume);
    float GetOutputVolume() const;
    void SetOutputVolume(float volume);
    void SetNoAudioInputThreshold(float dbfs);
    void SetNoAudioInputCallback(ClientNoAudioInputCallback &&cb) { noAudioInput_.Set(std::move(cb)); }
    void SetAutomaticGainControl(bool on);
    void SetEchoCancellation(bool on);
    void SetNoiseSuppression(bool on);
    void SetNoiseCancellation(bool on);
    void SetAecDump(bool on);
    bool SetVoiceLogDir(std::string path, LoggingSeverity minSeverity);
    uint64_t AddVoiceLogCallback(LoggingSeverity minSeverity, ClientLogCallback &&cb);
    bool RemoveVoiceLogCallback(uint64_t token) { return log_.Remove(token); }
    // Desktop Opus is always the software codec; the setting exists for source compatibility with mobile code.
    void SetOpusHardwareCoding(bool encode, bool decode);
    // Mobile-only controls: desktop has no OS audio session, route picker or speakerphone.
    void SetEngineManagedAudioSession(bool) {}
    bool ShowAudioRoutePicker() { return false; }
    bool SetSpeakerMode(bool) { return false; }

    // from the client (I/O thread)
    /** Adds the dispatch types this area reduces to the client's one table (native/SEMANTICS.md "Area services"). */
    void Register(DispatchTable &table);
    /** The gateway session ended (Disconnected): every call ends. */
    void OnGatewayGone();

    /** ResetCallbacks / Drop: every registration of the area ends (calling thread). */
    void ReleaseRegistrations();
    /** Drop, on the I/O thread: calls stop without events. Then Shutdown() on the dropping thread stops the engine. */
    void ShutdownOnIo();
    void Shutdown();

    /** Test hook: drops the voice WebSocket of a call (Reconnecting follows). False without such a call. */
    bool DropVoiceSocketForTest(uint64_t lobbyId);

  private:
    // The dispatches Register routes here (I/O thread).
    void OnReady(const nlohmann::json &data);
    void OnVoiceStateUpdate(const nlohmann::json &data);
    void OnVoiceServerUpdate(const nlohmann::json &data);
    void OnJoinRefused(const nlohmann::json &data);
    void OnLobbyDelete(const nlohmann::json &data);

    std::shared_ptr<CallSession> Active(uint64_t lobbyId) const;
    void Log(LoggingSeverity severity, std::string line) { log_.Log(severity, std::move(line)); }
    /** The calls that are over leave the active map (their sessions stay alive for queued events). */
    void Retire(uint64_t lobbyId);

    CallbackQueue &queue_;
    Operations &operations_;
    VoiceHost host_;
    Logger log_;
    std::shared_ptr<ClientVoiceControls> clientControls_ = std::make_shared<ClientVoiceControls>();
    std::shared_ptr<AudioDevices> devices_;
    std::unique_ptr<AudioEngine> engine_;
    std::shared_ptr<CallEnvironment> env_;

    mutable std::mutex mutex_;  // calls_, retired_, lobbyStates_, logDir_, aecDump_
    std::map<uint64_t, std::shared_ptr<CallSession>> calls_;
    std::vector<std::shared_ptr<CallSession>> retired_;
    std::map<uint64_t, std::map<uint64_t, VoiceStateRecord>> lobbyStates_;  // I/O thread writes
    std::string logDir_;
    bool aecDump_ = false;

    EventSlot<void(uint64_t, uint64_t, bool)> participantChanged_{queue_};
    EventSlot<void(bool)> noAudioInput_{queue_};
    EventSlot<void(const std::vector<AudioDevice> &, const std::vector<AudioDevice> &)> deviceChange_{queue_};
};

}  // namespace svcpp::core::voice
