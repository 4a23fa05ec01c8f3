#include "voice/e2ee/leb128.hpp"

namespace svcpp::core::voice::e2ee {

std::size_t Leb128Size(uint64_t value) {
    std::size_t size = 1;
    while (value >= 0x80) {
        value >>= 7;
        ++size;
    }
    return size;
}

std::size_t WriteLeb128(uint64_t value, std::span<uint8_t> out) {
    std::size_t size = Leb128Size(value);
    if (out.size() < size) return 0;
    for (std::size_t i = 0; i < size; ++i) {
        uint8_t group = value & 0x7f;
        value >>= 7;
        out[i] = static_cast<uint8_t>(group | (i + 1 < size ? 0x80 : 0));
    }
    return size;
}

std::optional<uint64_t> ReadLeb128(std::span<const uint8_t> in, std::size_t &position) {
    uint64_t value = 0;
    std::size_t p = position;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (p >= in.size()) return std::nullopt;
        uint8_t byte = in[p++];
        uint64_t group = byte & 0x7f;
        // The 10th byte may carry only the top bit of a 64-bit value.
        if (shift == 63 && group > 1) return std::nullopt;
        value |= group << shift;
        if (!(byte & 0x80)) {
            position = p;
            return value;
        }
    }
    return std::nullopt;
}

}  // namespace svcpp::core::voice::e2ee
