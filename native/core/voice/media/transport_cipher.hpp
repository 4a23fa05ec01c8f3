// TransportCipher: the voice UDP transport encryption, in the two modes the voice gateway offers:
//   aead_aes256_gcm_rtpsize           AES-256-GCM (OpenSSL EVP), 12-byte nonce
//   aead_xchacha20_poly1305_rtpsize   XChaCha20-Poly1305 IETF (OpenSSL EVP), 24-byte nonce
// Anything else (xsalsa20_poly1305*, non-rtpsize aead_aes256_gcm) is refused: Create() returns null.
//
//   packet    = header || ciphertext || tag(16) || counter(4, big-endian)
//   AAD       = header (RTP: 12 + 4·CC + the 4-byte extension preamble if X=1; RTCP: its 8-byte header)
//   nonce     = counter(4, big-endian) || zeros up to 12 / 24 bytes
//   plaintext = [RTP extension body, if X=1] || Opus frame (or the frame cryptor's output)
// The sender increments the counter per packet (it wraps at 2^32); the receiver reads it from the packet's tail.
//
// Threads: an instance keeps its cipher context between packets (no per-packet key set-up, no allocation), so one
// instance serves one thread. Make one for sending (audio thread) and one for receiving (network thread) from the
// same key.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

namespace svcpp::core::voice {

enum class TransportMode {
    AeadAes256GcmRtpsize,
    AeadXChaCha20Poly1305Rtpsize,
};

/** The wire name of a mode ("aead_aes256_gcm_rtpsize", "aead_xchacha20_poly1305_rtpsize"). */
std::string_view TransportModeName(TransportMode mode);
/** The mode for a wire name; nullopt for every other name (including the retired xsalsa20 and non-rtpsize modes). */
std::optional<TransportMode> ParseTransportMode(std::string_view name);

inline constexpr std::size_t kTransportKeySize = 32;
inline constexpr std::size_t kTransportTagSize = 16;
inline constexpr std::size_t kTransportNonceSuffixSize = 4;
/** Bytes a sealed packet has beyond header + plaintext. */
inline constexpr std::size_t kTransportOverhead = kTransportTagSize + kTransportNonceSuffixSize;

class TransportCipher {
  public:
    /** Null when the key is not 32 bytes or the mode is not available (the cipher library failed to initialise). */
    static std::unique_ptr<TransportCipher> Create(TransportMode mode, std::span<const uint8_t> key);
    /** As above by wire name; null for any name other than the two supported modes. */
    static std::unique_ptr<TransportCipher> Create(std::string_view modeName, std::span<const uint8_t> key);
    virtual ~TransportCipher() = default;

    virtual TransportMode Mode() const = 0;

    /**
     * Writes header || AEAD(plaintext, AAD = header, nonce from `counter`) || tag || counter into `out`.
     * Returns the packet size, or 0 when `out` is smaller than header + plaintext + kTransportOverhead.
     * `out` must not overlap the inputs.
     */
    virtual std::size_t Seal(std::span<const uint8_t> header, std::span<const uint8_t> plaintext, uint32_t counter,
                             std::span<uint8_t> out) = 0;

    /**
     * Authenticates and decrypts `packet`, whose first `headerSize` bytes are the AAD (ParseRtpHeader's
     * headerSize for RTP, 8 for RTCP). Writes the plaintext into `out` and returns its size; nullopt when the packet is
     * too short, `out` too small, or authentication fails (tampered, wrong key) — `out` is then unspecified.
     */
    virtual std::optional<std::size_t> Open(std::span<const uint8_t> packet, std::size_t headerSize,
                                            std::span<uint8_t> out) = 0;

    /** The nonce counter carried in a sealed packet's last 4 bytes (nullopt when shorter than 4 bytes). */
    static std::optional<uint32_t> PacketCounter(std::span<const uint8_t> packet);
};

}  // namespace svcpp::core::voice
