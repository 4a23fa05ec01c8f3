// The DAVE frame cryptor as the voice pipeline's FrameTransform: Encrypt uses our own sender ratchet, Decrypt the
// ratchets of the sender `userId` (from the gateway's SSRC map). The DAVE session (MLS group) feeds it keys: at each
// epoch it calls SetEpochKeys with the exporter secret, which derives every member's ratchet; the session's transition
// logic calls SetPassthrough.
//
// Threads: Encrypt runs on the audio thread, Decrypt on the network thread, key changes on the session's thread.
// Send and receive state have a lock each, held for one frame; key changes take them briefly. Encrypt and Decrypt
// allocate only when a new key generation starts (every 2^24 frames of a sender, or on its first frame in an epoch).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "voice/e2ee/clock.hpp"
#include "voice/e2ee/frame_decryptor.hpp"
#include "voice/e2ee/frame_encryptor.hpp"
#include "voice/media/frame_transform.hpp"

namespace svcpp::core::voice::e2ee {

struct DecryptStats {
    uint64_t decrypted = 0;
    uint64_t passedThrough = 0;  // silence frames and frames accepted in clear during passthrough
    std::map<DecryptFailure, uint64_t> dropped;

    uint64_t DroppedTotal() const {
        uint64_t total = 0;
        for (const auto &[failure, count] : dropped) total += count;
        return total;
    }
};

class DaveFrameTransform final : public FrameTransform {
  public:
    DaveFrameTransform(uint64_t ownUserId, const Clock &clock) : ownUserId_(ownUserId), clock_(clock) {}

    /**
     * A new epoch: our send ratchet switches at once (the protocol's execute_transition), and each member's receive
     * ratchet is added beside the previous epoch's, which is kept for kKeyRetention. Members not listed keep only
     * their retiring keys (they left).
     */
    void SetEpochKeys(mls::ByteView exporterSecret, const std::vector<uint64_t> &memberUserIds);
    /**
     * The two halves of SetEpochKeys, for the DAVE session: receive keys of a new epoch are installed as soon as its
     * commit or Welcome is processed (others may switch before we do), our send key only at execute_transition.
     */
    void AddReceiveKeys(mls::ByteView exporterSecret, const std::vector<uint64_t> &memberUserIds);
    void SetSendKey(mls::ByteView exporterSecret);
    /** Receive-side passthrough only: a downgrade is prepared (others may stop encrypting before we do). */
    void SetReceivePassthrough(bool enabled);
    /** Passthrough for both directions (transition to or from protocol version 0). */
    void SetPassthrough(bool enabled);

    std::size_t MaxEncryptOverhead() const override { return kMaxOpusOverhead; }
    std::optional<std::size_t> Encrypt(uint32_t ssrc, std::span<const uint8_t> frame, std::span<uint8_t> out) override;
    std::optional<std::size_t> Decrypt(uint64_t userId, uint32_t ssrc, std::span<const uint8_t> frame,
                                       std::span<uint8_t> out) override;

    /** Every received frame, all senders together. */
    DecryptStats Stats() const;
    /** One sender's frames (all zero for a user never heard): why a participant is silent. */
    DecryptStats StatsFor(uint64_t userId) const;
    /** Our own frames that left as DAVE ciphertext: not the silence frames or passthrough sent in clear, nor a frame
     *  dropped for want of a send key (a member alone in the call has no group). */
    uint64_t FramesEncrypted() const;

  private:
    FrameDecryptor &DecryptorFor(uint64_t userId);

    const uint64_t ownUserId_;
    const Clock &clock_;

    mutable std::mutex sendMutex_;
    FrameEncryptor encryptor_;
    uint64_t framesEncrypted_ = 0;

    mutable std::mutex receiveMutex_;
    std::map<uint64_t, std::unique_ptr<FrameDecryptor>> decryptors_;
    bool passthrough_ = false;
    DecryptStats stats_;
    std::map<uint64_t, DecryptStats> statsBySender_;
};

}  // namespace svcpp::core::voice::e2ee
