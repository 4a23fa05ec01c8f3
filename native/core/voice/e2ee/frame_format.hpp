// The DAVE protocol frame (protocol version 1): an encrypted media frame is
//
//   frame bytes (encrypted ones replaced by ciphertext, unencrypted ranges left in clear)
//   ‖ tag (AES-128-GCM tag truncated to 8 bytes)
//   ‖ ULEB128 truncated nonce (u32)
//   ‖ ULEB128 (offset, length) pairs of the unencrypted ranges (none for Opus)
//   ‖ u8 supplemental size (tag + nonce + ranges + this byte + marker)
//   ‖ 0xFA 0xFA marker
//
// The AEAD's additional data is the concatenation of the unencrypted ranges, its plaintext the other bytes. The
// 12-byte IV is 8 zero bytes followed by the truncated nonce in little-endian order (what libdave writes on x86 and
// davey interoperates with). The top 8 bits of the nonce are the key generation (mod 256).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace svcpp::core::voice::e2ee {

inline constexpr std::size_t kTagSize = 8;
inline constexpr std::size_t kKeySize = 16;
inline constexpr std::size_t kIvSize = 12;
inline constexpr uint8_t kMarkerByte = 0xFA;
inline constexpr std::size_t kMarkerSize = 2;
inline constexpr unsigned kGenerationShift = 24;  // generation = nonce >> 24
inline constexpr uint32_t kGenerationWrap = 256;
/** The Opus in-band silence frame: sent in clear (DAVE clients do not encrypt it). */
inline constexpr std::array<uint8_t, 3> kOpusSilenceFrame = {0xF8, 0xFF, 0xFE};
/** Tag + the largest nonce (5 bytes) + size byte + marker: the most Encrypt adds to an Opus frame. */
inline constexpr std::size_t kMaxOpusOverhead = kTagSize + 5 + 1 + kMarkerSize;

struct UnencryptedRange {
    std::size_t offset;
    std::size_t size;
};

/** A parsed protocol frame; spans point into the input. */
struct ParsedFrame {
    std::span<const uint8_t> body;  // the frame bytes before the tag (ciphertext and clear ranges)
    std::span<const uint8_t> tag;
    uint32_t nonce = 0;
    std::vector<UnencryptedRange> unencryptedRanges;  // ascending, non-overlapping, inside `body`
};

/** True when the frame ends with the marker (it claims to be a DAVE frame). */
bool HasMarker(std::span<const uint8_t> frame);
/** Parses a protocol frame; nullopt when anything is inconsistent (sizes, ranges, nonce width). */
std::optional<ParsedFrame> ParseFrame(std::span<const uint8_t> frame);
bool IsOpusSilence(std::span<const uint8_t> frame);
std::array<uint8_t, kIvSize> MakeIv(uint32_t nonce);

}  // namespace svcpp::core::voice::e2ee
