// Decrypts one remote sender's DAVE protocol frames. At an epoch change the new epoch's ratchet is added and the
// previous one is kept for kKeyRetention, so frames the sender encrypted just before it switched still decrypt
// (no audio lost at key changes). Frames without the protocol marker are accepted only inside a passthrough window
// (a transition to or from an unencrypted call) — never otherwise; the Opus silence frame is always accepted.
// Not thread-safe: DaveFrameTransform serialises access.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>

#include "voice/e2ee/clock.hpp"
#include "voice/e2ee/frame_format.hpp"
#include "voice/e2ee/limits.hpp"
#include "voice/e2ee/sender_key_manager.hpp"

namespace svcpp::core::voice::e2ee {

/** Why a frame was dropped (counted, so a support engineer can see why a participant is silent). */
enum class DecryptFailure {
    NoKey,           // no ratchet for this sender yet
    Unencrypted,     // a frame without the marker outside a passthrough window
    Malformed,       // marker present but the footer is inconsistent
    Replayed,        // nonce already processed (or older than the replay window)
    KeyUnavailable,  // generation too old, too far ahead, or the ratchet is too young for it
    Authentication,  // no kept key authenticates the frame (tampered, or keys of another epoch)
};

class FrameDecryptor {
  public:
    explicit FrameDecryptor(const Clock &clock) : clock_(clock) {}

    /** A new epoch's ratchet for this sender; the previous ones retire after kKeyRetention. */
    void TransitionToKeyRatchet(std::unique_ptr<KeyRatchet> ratchet);
    /** The sender left the group: its keys retire after kKeyRetention and no new ones come. */
    void Retire();
    /** Passthrough on: unencrypted frames are accepted until turned off plus `window`. */
    void SetPassthrough(bool enabled, std::chrono::milliseconds window = kKeyRetention);

    struct Result {
        std::optional<std::size_t> size;
        std::optional<DecryptFailure> failure;
    };
    /** Writes the decoded frame to `out` (at least frame.size() bytes). */
    Result Decrypt(std::span<const uint8_t> frame, std::span<uint8_t> out);

  private:
    bool PassthroughAllowed() const { return clock_.Now() < passthroughUntil_; }
    std::optional<std::size_t> TryDecrypt(SenderKeyManager &keys, const ParsedFrame &parsed, std::span<uint8_t> out,
                                          DecryptFailure &failure);

    const Clock &clock_;
    std::deque<std::unique_ptr<SenderKeyManager>> epochs_;  // oldest first
    TimePoint passthroughUntil_ = TimePoint::min();
};

}  // namespace svcpp::core::voice::e2ee
