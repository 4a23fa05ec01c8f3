// FrameTransform: the seam for end-to-end frame encryption (DAVE). It sits between the Opus encoder and the RTP
// packetizer on send, and between transport decryption and the Opus decoder on receive:
//
//   send:    encode → FrameTransform::Encrypt → RTP header → TransportCipher::Seal → UDP
//   receive: UDP → TransportCipher::Open → FrameTransform::Decrypt → JitterBuffer → decode
//
// Decrypting before the jitter buffer means the buffer holds decodable Opus, so FEC can read packet n+1 for frame n.
// The Opus silence frame (F8 FF FE) must pass through both directions unchanged (DAVE leaves it in clear).
// Today's implementation is PassThroughFrameTransform; a DAVE cryptor implements the same interface.
//
// Threads: Encrypt on the audio thread, Decrypt on the network thread, possibly at the same time: an implementation
// must allow that (the pass-through is stateless). Neither may allocate or block.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

namespace svcpp::core::voice {

class FrameTransform {
  public:
    virtual ~FrameTransform() = default;

    /** Bytes Encrypt may add to a frame (so the caller sizes `out` as frame + this). */
    virtual std::size_t MaxEncryptOverhead() const = 0;

    /**
     * Transforms one encoded frame of our own stream (`ssrc`) into `out`. Returns the size written, or nullopt to drop
     * the frame (e.g. no key yet).
     */
    virtual std::optional<std::size_t> Encrypt(uint32_t ssrc, std::span<const uint8_t> frame,
                                               std::span<uint8_t> out) = 0;

    /**
     * Reverses a remote sender's transform: `userId` is the sender (from the gateway's Speaking SSRC map), `ssrc` its
     * stream. Returns the size of the decoded frame written to `out`, or nullopt to drop it (authentication failed).
     */
    virtual std::optional<std::size_t> Decrypt(uint64_t userId, uint32_t ssrc, std::span<const uint8_t> frame,
                                               std::span<uint8_t> out) = 0;
};

/** The transform of a call without end-to-end encryption: copies the frame. */
class PassThroughFrameTransform final : public FrameTransform {
  public:
    std::size_t MaxEncryptOverhead() const override { return 0; }
    std::optional<std::size_t> Encrypt(uint32_t ssrc, std::span<const uint8_t> frame, std::span<uint8_t> out) override;
    std::optional<std::size_t> Decrypt(uint64_t userId, uint32_t ssrc, std::span<const uint8_t> frame,
                                       std::span<uint8_t> out) override;
};

}  // namespace svcpp::core::voice
