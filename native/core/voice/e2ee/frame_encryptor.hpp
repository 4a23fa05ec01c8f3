// Encrypts our own Opus frames into DAVE protocol frames (frame_format.hpp). The truncated nonce counts frames from 1
// after each key change; its top byte is the key generation, so a new key is derived every 2^24 frames.
// Not thread-safe: DaveFrameTransform serialises access.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "voice/e2ee/aes_gcm_cryptor.hpp"
#include "voice/e2ee/key_ratchet.hpp"

namespace svcpp::core::voice::e2ee {

class FrameEncryptor {
  public:
    /** Starts encrypting with a new epoch's ratchet (nonce restarts at 1, generation 0). */
    void SetKeyRatchet(std::unique_ptr<KeyRatchet> ratchet);
    /** While on, frames go out in clear (only during a transition to or from an unencrypted call). */
    void SetPassthrough(bool enabled) { passthrough_ = enabled; }
    bool HasKey() const { return ratchet_ != nullptr; }

    /**
     * Writes the protocol frame of `frame` to `out` (which must hold frame + kMaxOpusOverhead bytes). The Opus silence
     * frame and, in passthrough, every frame are copied unchanged. nullopt (drop) without a key or when `out` is small.
     */
    std::optional<std::size_t> Encrypt(std::span<const uint8_t> frame, std::span<uint8_t> out) noexcept;

  private:
    AesGcmCryptor *CryptorForNextNonce(uint32_t &nonce) noexcept;

    std::unique_ptr<KeyRatchet> ratchet_;
    std::unique_ptr<AesGcmCryptor> cryptor_;
    uint32_t generation_ = 0;  // unwrapped
    uint32_t nonce_ = 0;       // the last nonce used
    bool passthrough_ = false;
};

}  // namespace svcpp::core::voice::e2ee
