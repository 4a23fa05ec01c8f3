// The keys of one remote sender in one epoch: a cryptor per key generation (created on first use, kept until
// kKeyRetention after a newer generation decrypted), and the replay window over the sender's nonces.
//
// Nonces are unwrapped to 64 bits (generation << 24 | low 24 bits). A nonce is accepted once: either above the newest
// processed, or one of the at most kMaxMissingNonces skipped ones still remembered (late, reordered frames).
// Not thread-safe: the FrameDecryptor owning it serialises access.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>

#include "voice/e2ee/aes_gcm_cryptor.hpp"
#include "voice/e2ee/clock.hpp"
#include "voice/e2ee/key_ratchet.hpp"

namespace svcpp::core::voice::e2ee {

class SenderKeyManager {
  public:
    SenderKeyManager(const Clock &clock, std::unique_ptr<KeyRatchet> ratchet);

    /** The unwrapped generation of a frame's 8-bit generation, relative to the oldest kept. */
    uint32_t UnwrapGeneration(uint32_t wireGeneration) const;
    /** The cryptor of `generation`, or nullptr when it is too old, too far ahead, or beyond the ratchet's age. */
    AesGcmCryptor *CryptorFor(uint32_t generation);
    /** False for a replayed (or too old to tell) nonce. */
    bool CanProcessNonce(uint32_t generation, uint32_t nonce) const;
    /** Records a successfully decrypted frame: advances the replay window and retires older generations. */
    void ReportSuccess(uint32_t generation, uint32_t nonce);

    /** When this epoch's keys stop being used (set when a newer epoch takes over). */
    void ExpireAt(TimePoint when) { expiry_ = std::min(expiry_, when); }
    bool Expired() const { return clock_.Now() > expiry_; }

  private:
    struct Entry {
        std::unique_ptr<AesGcmCryptor> cryptor;
        TimePoint expiry;
    };
    void DropExpired();

    const Clock &clock_;
    std::unique_ptr<KeyRatchet> ratchet_;
    TimePoint created_;
    TimePoint expiry_ = TimePoint::max();
    std::map<uint32_t, Entry> cryptors_;
    uint32_t oldestGeneration_ = 0;
    uint32_t newestGeneration_ = 0;
    std::optional<uint64_t> newestNonce_;
    std::deque<uint64_t> missingNonces_;
};

}  // namespace svcpp::core::voice::e2ee
