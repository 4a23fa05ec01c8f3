// CallSession: one lobby voice call of this client — the Call status machine (docs/voice.md "Call status") and
// the glue between the main gateway (op 4, VOICE_STATE_UPDATE, VOICE_SERVER_UPDATE), the voice gateway, the UDP
// transport and the audio engine.
//
//   Begin: op 4 {channel_id: lobby} ─► Joining ─(our VOICE_STATE_UPDATE + VOICE_SERVER_UPDATE)─► Connecting
//   ─(voice Ready)─► SignalingConnected ─(IP discovery, Select Protocol, Session Description)─► Connected
//   voice socket dropped (resumable) ─► Reconnecting ─(Resumed, or a new Session Description)─► Connected
//   no voice server within 10 s ─► Disconnected (JoinTimeout)       platform refuses the join ─► Disconnected
//   (Forbidden) voice gateway unreachable before Ready ─► Disconnected (SignalingConnectionFailed, close code) terminal
//   close after Ready ─► Disconnected (SignalingUnexpectedClose, close code) no discovery answer / no common mode ─►
//   Disconnected (VoiceConnectionFailed) End ─► Disconnecting ─(op 4 {channel_id: null}, voice socket closed)─►
//   Disconnected
// Disconnected is final: the Call handles become invalid and a new StartCall makes a new session.
//
// Threading: the API side (getters, setters, slots) from any thread; Begin/End/On* on the client's I/O thread.
#pragma once
#include <array>
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

#include "generated/enums.hpp"
#include "net/websocket.hpp"
#include "runtime/callback_queue.hpp"
#include "runtime/event_slot.hpp"
#include "threads/sdk_threads.hpp"
#include "voice/call_controls.hpp"
#include "voice/e2ee/dave_frame_transform.hpp"
#include "voice/e2ee/dave_session.hpp"
#include "voice/voice_state.hpp"

namespace svcpp::core::net {
class ClientExecutor;  // net/client_executor.hpp: the executor of one client's I/O objects
}

namespace svcpp::core::voice {

class AudioEngine;
class CallMedia;
class UdpTransport;
class VoiceGateway;

/** What every call of a client shares: the client's I/O thread, its gateway, its queue, its audio engine. */
struct CallEnvironment {
    CallbackQueue &queue;
    const net::ClientExecutor &io;
    std::function<void(std::function<void()>)> post;  // runs fn on the I/O thread (not once torn down)
    net::WebSocketFactory websockets;                 // use on the I/O thread
    bool secureGateway = true;                        // wss:// for the voice gateway (the main one's scheme)
    std::function<bool(const nlohmann::json &)> sendVoiceStateUpdate;  // main-gateway op 4; I/O thread
    std::function<void(LoggingSeverity, std::string)> log;
    std::shared_ptr<SdkThreads> threads;  // each call's UDP thread enters it as a Network thread
    AudioEngine &engine;
    int32_t joinTimeoutMs = 10000;
};

class CallSession : public std::enable_shared_from_this<CallSession> {
  public:
    CallSession(uint64_t lobbyId, uint64_t selfId, std::shared_ptr<CallEnvironment> env,
                std::shared_ptr<CallControls> controls);
    ~CallSession();

    // ---- any thread ----
    uint64_t LobbyId() const { return lobbyId_; }
    CallStatus Status() const { return status_.load(); }
    /** Disconnected after having started: the call is over and its handles are invalid. */
    bool Ended() const { return ended_.load(); }
    const std::shared_ptr<CallControls> &Controls() const { return controls_; }
    std::vector<uint64_t> Participants() const;
    std::optional<VoiceStateRecord> VoiceState(uint64_t userId) const;
    /** Self mute/deaf changed: tells the platform (op 4) once Connected; before that it is sent on connect. */
    void SelfStateChanged();

    EventSlot<void(CallStatus, CallError, int32_t)> statusChanged;
    EventSlot<void(uint64_t, bool)> participantChanged;
    EventSlot<void(uint64_t)> voiceStateChanged;
    EventSlot<void(uint64_t, bool)> speakingChanged;
    /** The call's end-to-end encryption state changed (DAVE: version, epoch, transition, passthrough). */
    EventSlot<void(int32_t, uint64_t, bool, bool)>
        encryptionChanged;  // protocol version, epoch, transition pending, passthrough
    /** The current end-to-end encryption state (a snapshot; any thread). */
    e2ee::DaveEncryptionState Encryption() const;
    /** The call's privacy code for the current epoch (empty without a group; any thread). */
    std::string PrivacyCode() const;
    /** The DAVE frame cryptor's counters for one sender's frames (all zero before DAVE starts; any thread). */
    e2ee::DecryptStats DecryptStatsFor(uint64_t userId) const;
    /** Our frames sent as DAVE ciphertext so far (any thread). */
    uint64_t FramesEncrypted() const;
    /** The 45-digit pairwise verification fingerprint of us and `userId` in the current epoch; empty when either of us
     *  is not in the group (or `userId` is us). Any thread. The first read for a pair of keys runs scrypt (tens of
     *  ms, more on a loaded machine); the result is kept until either key changes, so a UI may read it every frame. */
    std::string ParticipantFingerprint(uint64_t userId) const;
    /** Ends every registration (the client's ResetCallbacks/Drop); runs on the calling (host) thread. */
    void ReleaseRegistrations();

    // ---- I/O thread ----
    /** Sends op 4 and waits for the voice server (Joining). `seed`: the lobby's voice states known so far. */
    void Begin(const std::vector<VoiceStateRecord> &seed);
    /** A VOICE_STATE_UPDATE of this lobby (any member). */
    void OnVoiceState(const VoiceStateRecord &state);
    /** VOICE_SERVER_UPDATE of this lobby. */
    void OnVoiceServer(const std::string &token, const std::optional<std::string> &endpoint);
    /** The platform refused our op 4 for this lobby (not a member): Disconnected (Forbidden). */
    void OnJoinRefused();
    /** EndCall: leaves and runs done once Disconnected (at once when already Disconnected). */
    void End(std::function<void()> done);
    /** Client teardown: stop everything, no events. */
    void Shutdown();
    /** Test hook (svcpp tests): drop the voice WebSocket as a network cut would. */
    void DropVoiceSocketForTest();
    /** Client-wide or per-call setting that needs the wire (op 4 self_mute/self_deaf): I/O thread. */
    void SendSelfState();

    uint64_t PacketsSent() const;
    uint64_t PacketsDecoded() const;
    /** Frames of `userId` played in this call (CallMedia::FramesPlayedFrom); 0 without media. Any thread. */
    uint64_t FramesPlayedFrom(uint64_t userId) const;

  private:
    void SetStatus(CallStatus status, CallError error = CallError::None, int32_t detail = 0);
    void Fail(CallError error, int32_t detail);
    void Release();  // gateway, UDP, media, timers: I/O thread
    void MaybeStartGateway();
    void OnReady(uint32_t ssrc, const std::string &ip, uint16_t port, const std::vector<std::string> &modes);
    void OnSessionDescription(const std::string &mode, const std::array<uint8_t, 32> &key, int daveVersion);
    void StartDaveSession();
    void OnEncryptionState(const e2ee::DaveEncryptionState &state);
    void UpdateParticipant(const VoiceStateRecord &state);

    const uint64_t lobbyId_;
    const uint64_t selfId_;
    std::shared_ptr<CallEnvironment> env_;
    std::shared_ptr<CallControls> controls_;
    std::atomic<CallStatus> status_{CallStatus::Disconnected};
    std::atomic<bool> ended_{false};

    mutable std::mutex mutex_;  // participants_, encryption_
    std::map<uint64_t, VoiceStateRecord> participants_;
    e2ee::DaveEncryptionState encryption_;
    std::string privacyCode_;  // refreshed with each state change (the session lives on the I/O thread)
    std::map<uint64_t, std::vector<uint8_t>> signatureKeys_;  // members' MLS signature keys of the current epoch
    /** Fingerprints computed so far, with the two keys they were computed from (a key change makes one stale). */
    struct KnownFingerprint {
        std::vector<uint8_t> own, theirs;
        std::string digits;
    };
    mutable std::map<uint64_t, KnownFingerprint> fingerprints_;  // guarded by mutex_
    std::shared_ptr<const e2ee::DaveFrameTransform> counters_;   // the I/O thread's frame cryptor, for its counters

    // I/O thread
    struct Io;
    std::unique_ptr<Io> io_;
    std::shared_ptr<UdpTransport> udp_;              // also read by the audio thread through CallMedia
    std::atomic<std::shared_ptr<CallMedia>> media_;  // the network thread's current receiver
};

}  // namespace svcpp::core::voice
