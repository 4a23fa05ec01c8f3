// The limits of the DAVE frame cryptor (protocol version 1), shared by encryptor and decryptor.
#pragma once
#include <chrono>
#include <cstdint>

namespace svcpp::core::voice::e2ee {

/** How long a superseded key (older generation, or the previous epoch's ratchet) stays usable. */
inline constexpr auto kKeyRetention = std::chrono::seconds(10);
/** A frame more than this many generations ahead of the newest decrypted one is dropped (bounds key derivation). */
inline constexpr uint32_t kMaxGenerationGap = 250;
/** How many skipped nonces are remembered as still acceptable (late, out-of-order frames); older ones are replays. */
inline constexpr std::size_t kMaxMissingNonces = 1000;
/** Frames per second a sender can produce (50 audio + 2 × 60 video): bounds the generations a young ratchet reaches. */
inline constexpr uint64_t kMaxFramesPerSecond = 50 + 2 * 60;

}  // namespace svcpp::core::voice::e2ee
