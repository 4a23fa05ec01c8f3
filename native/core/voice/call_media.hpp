// CallMedia: the media half of one connected call — what the audio thread and the network thread do for it.
//
//   audio thread, every 10 ms (AudioEngine):
//     SendFrame:   captured frame → captured callback (in place) → gate (self mute/deaf, PTT or VAD) → 2 × 10 ms
//                  → Opus encode → FrameTransform → RTP → transport seal → UDP send(2)
//                  (when the gate closes: five Opus silence frames, then nothing; Speaking op 5 on each change)
//     MixReceived: per remote SSRC: jitter buffer → decode (or FEC / PLC) → received callback (outShouldMute)
//                  → local mute, participant volume → mixer
//   network thread (UdpTransport): OnDatagram: transport open → FrameTransform::Decrypt → that SSRC's jitter buffer
//
// A CallMedia is made when the Session Description arrives (it needs the mode and key) and replaced when the voice
// session is re-established. The jitter buffer of each SSRC is shared by the two threads under a per-sender mutex
// held only for a Push or a Pop (no allocation, no I/O under it); everything else the audio thread touches belongs
// to it alone or is atomic.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "generated/callbacks.hpp"
#include "voice/media/audio_format.hpp"
#include "voice/media/frame_transform.hpp"
#include "voice/media/jitter_buffer.hpp"
#include "voice/media/levels.hpp"
#include "voice/media/mixer.hpp"
#include "voice/media/opus_codec.hpp"
#include "voice/media/rtp_packetizer.hpp"
#include "voice/media/transport_cipher.hpp"
#include "voice/media/volume.hpp"

namespace svcpp::core::voice {

class UdpTransport;
struct CallControls;

/** What CallMedia tells its call (from the audio thread; the call turns these into gateway messages and events). */
struct CallMediaEvents {
    std::function<void(bool speaking)> selfSpeaking;                     // our transmission started / stopped (op 5)
    std::function<void(uint64_t userId, bool speaking)> remoteSpeaking;  // a sender's audio started / stopped
};

class CallMedia {
  public:
    /**
     * Null when the mode is not one we speak or a codec cannot be created. `transform` is the call's end-to-end frame
     * cryptor (DAVE), which outlives a media pipeline rebuilt on reconnection; none = frames in clear (tests).
     */
    static std::shared_ptr<CallMedia> Create(const std::string &mode, const std::array<uint8_t, 32> &key, uint32_t ssrc,
                                             std::shared_ptr<UdpTransport> transport,
                                             std::shared_ptr<CallControls> controls, CallMediaEvents events,
                                             std::shared_ptr<FrameTransform> transform = nullptr);

    // ---- network thread ----
    /** One received datagram (RTP, RTCP, keepalive echo …): decrypted audio goes to its sender's jitter buffer. */
    void OnDatagram(std::span<const uint8_t> datagram);

    /**
     * Before Attach, when this pipeline replaces `previous` (a re-established voice session): our stream continues
     * previous's RTP sequence, timestamp and nonce counter. Taken over on the audio thread at the first SendFrame —
     * the one thread that used previous's packetizer — once previous is detached.
     */
    void ContinueStreamOf(std::shared_ptr<CallMedia> previous) { previous_ = std::move(previous); }

    // ---- audio thread ----
    /** One captured 10 ms frame (already input-volume scaled and processed); `levelDb` is its level after processing.
     */
    void SendFrame(std::span<const int16_t> frame, float levelDb, std::optional<bool> processorVoice);
    /** Adds 10 ms of every remote sender to `mixer` (nothing while deafened). */
    void MixReceived(Mixer &mixer, int64_t nowUs);

    // ---- any thread ----
    uint64_t PacketsSent() const { return packetsSent_.load(std::memory_order_relaxed); }
    uint64_t PacketsDecoded() const { return packetsDecoded_.load(std::memory_order_relaxed); }
    /**
     * Frames of `userId` played out: taken from its jitter buffer in turn and decoded from their own packet (not
     * concealed, not rebuilt from the next packet's FEC), or an Opus silence frame the jitter buffer skipped to bring
     * its delay back to the target (it plays as the silence it carries, only shorter). With the frame cryptor's
     * counters it tells a frame lost after decryption (late, overflowing the jitter buffer, speech skipped past
     * maxQueuedMs) from one lost before: every frame that arrived in time is played.
     */
    uint64_t FramesPlayedFrom(uint64_t userId) const;
    uint32_t Ssrc() const { return ssrc_; }

  private:
    CallMedia() = default;

    struct Sender;                     // one remote SSRC
    Sender *SenderFor(uint32_t ssrc);  // network thread; creates it
    void Transmit(std::span<const uint8_t> opus);

    uint32_t ssrc_ = 0;
    std::shared_ptr<UdpTransport> transport_;
    std::shared_ptr<CallControls> controls_;
    CallMediaEvents events_;

    // send side (audio thread)
    std::unique_ptr<OpusFrameEncoder> encoder_;
    std::unique_ptr<TransportCipher> sendCipher_;
    std::unique_ptr<RtpPacketizer> packetizer_;
    std::shared_ptr<CallMedia> previous_;  // set before Attach; the audio thread takes its stream over, then drops it
    std::shared_ptr<FrameTransform> transform_;  // DAVE's cryptor (thread-safe: audio and network threads use it)
    std::array<int16_t, kOpusFrameSamples> pending_{};
    std::array<int16_t, kDeviceFrameSamples> captured_{};
    std::size_t pendingSamples_ = 0;
    bool pendingOpen_ = false;   // the gate was open for a 10 ms half of the pending 20 ms frame
    bool transmitting_ = false;  // audio (not silence) went out for the last frame
    int silenceFramesLeft_ = 0;
    VoiceActivityGate vad_;
    PushToTalkGate ptt_;
    std::array<uint8_t, kMaxOpusPacketBytes> opus_{};
    std::array<uint8_t, kMaxVoicePacketBytes> packet_{};

    // receive side
    std::unique_ptr<TransportCipher> receiveCipher_;         // network thread
    std::array<uint8_t, kMaxVoicePacketBytes> opened_{};     // network thread
    std::array<uint8_t, kMaxVoicePacketBytes> decrypted_{};  // network thread
    mutable std::mutex sendersMutex_;  // guards the map's shape (network thread inserts; audio thread iterates)
    std::map<uint32_t, std::unique_ptr<Sender>> senders_;

    std::atomic<uint64_t> packetsSent_{0};
    std::atomic<uint64_t> packetsDecoded_{0};
};

}  // namespace svcpp::core::voice
