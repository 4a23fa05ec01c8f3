// Unsigned LEB128 (7 bits per byte, low groups first, high bit = more), the encoding of the DAVE footer's nonce and
// unencrypted ranges. Reading is strict: no more than 10 bytes, no overflow of 64 bits, never past the end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace svcpp::core::voice::e2ee {

std::size_t Leb128Size(uint64_t value);
/** Writes `value` at the start of `out`; returns the bytes written, or 0 if `out` is too small. */
std::size_t WriteLeb128(uint64_t value, std::span<uint8_t> out);
/** Reads a value starting at `in[position]`, advancing `position`; nullopt when truncated or overlong. */
std::optional<uint64_t> ReadLeb128(std::span<const uint8_t> in, std::size_t &position);

}  // namespace svcpp::core::voice::e2ee
