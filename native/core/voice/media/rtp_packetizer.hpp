// The two ends of the media transport for one stream, composing Rtp, FrameTransform and TransportCipher:
//   RtpPacketizer     (audio thread)   one encoded Opus frame → one encrypted RTP packet, ready for sendto()
//   OpenRtpPacket     (network thread) one received datagram → RTP header + transport-decrypted payload; the caller
//                     then maps the SSRC to its user and runs FrameTransform::Decrypt (which needs that user id)
// No allocation: callers pass the buffers (kMaxVoicePacketBytes each).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "voice/media/frame_transform.hpp"
#include "voice/media/rtp.hpp"
#include "voice/media/transport_cipher.hpp"

namespace svcpp::core::voice {

/** Buffer size for one voice datagram, sent or received (a 20 ms Opus frame is far below it). */
inline constexpr std::size_t kMaxVoicePacketBytes = 1500;

/** Why a received datagram yielded no audio (counted by the caller; none of these is an error worth logging each). */
enum class OpenRtpError {
    NotRtp,            // RTCP, discovery, keepalive, garbage
    WrongPayloadType,  // not 0x78 Opus
    DecryptFailed,     // transport authentication failed
    Malformed,         // extension longer than the payload
};

struct OpenedRtpPacket {
    RtpHeader header;
    std::span<const uint8_t> payload;  // the (possibly end-to-end encrypted) frame, inside the caller's `out` buffer
};

/** Sequence numbers, timestamps and nonce counters of our own outgoing stream. */
class RtpPacketizer {
  public:
    /** Discord clients start sequence and timestamp at random values and the counter at 0; tests pass fixed ones. */
    RtpPacketizer(uint32_t ssrc, uint16_t firstSequence, uint32_t firstTimestamp, uint32_t firstCounter = 0);

    /**
     * Builds the next packet: FrameTransform::Encrypt(frame) → 12-byte RTP header → TransportCipher::Seal, into `out`.
     * Advances sequence (+1), timestamp (+960) and counter (+1). Returns the datagram size, or 0 when the transform
     * dropped the frame or `out` is too small (nothing advances then, except the timestamp: the frame's time passed).
     */
    std::size_t Packetize(std::span<const uint8_t> opusFrame, FrameTransform &transform, TransportCipher &cipher,
                          std::span<uint8_t> out);

    /** A 20 ms frame that is not sent (DTX, muted): the timestamp advances, the sequence does not (RFC 3550 §5.1). */
    void SkipFrame() { timestamp_ += 960; }

    /**
     * Carries on where `previous` (the same SSRC's stream before a voice reconnection) stopped: receivers see one
     * continuous sequence (RFC 3550 §5.1), so their jitter buffers keep what they hold instead of taking a jump for a
     * new stream, and the nonce counter never goes back.
     */
    void ContinueFrom(const RtpPacketizer &previous) {
        sequence_ = previous.sequence_;
        timestamp_ = previous.timestamp_;
        counter_ = previous.counter_;
    }

    uint32_t Ssrc() const { return ssrc_; }
    uint16_t NextSequence() const { return sequence_; }
    uint32_t NextTimestamp() const { return timestamp_; }
    uint32_t NextCounter() const { return counter_; }

  private:
    uint32_t ssrc_;
    uint16_t sequence_;
    uint32_t timestamp_;
    uint32_t counter_;
    std::array<uint8_t, kMaxVoicePacketBytes> frame_{};  // the transform's output, before sealing
};

struct OpenRtpResult {
    std::optional<OpenedRtpPacket> packet;
    OpenRtpError error = OpenRtpError::NotRtp;  // meaningful when !packet
};

/**
 * Parses and transport-decrypts a received datagram into `out` (give it kMaxVoicePacketBytes), dropping the RTP
 * extension body from the front of the plaintext.
 */
OpenRtpResult OpenRtpPacket(std::span<const uint8_t> datagram, TransportCipher &cipher, std::span<uint8_t> out);

}  // namespace svcpp::core::voice
