#include "voice/e2ee/frame_format.hpp"

#include <algorithm>

#include "voice/e2ee/leb128.hpp"

namespace svcpp::core::voice::e2ee {

bool HasMarker(std::span<const uint8_t> frame) {
    return frame.size() >= kMarkerSize && frame[frame.size() - 1] == kMarkerByte &&
           frame[frame.size() - 2] == kMarkerByte;
}

bool IsOpusSilence(std::span<const uint8_t> frame) {
    return std::equal(frame.begin(), frame.end(), kOpusSilenceFrame.begin(), kOpusSilenceFrame.end());
}

std::optional<ParsedFrame> ParseFrame(std::span<const uint8_t> frame) {
    if (!HasMarker(frame) || frame.size() < kMarkerSize + 1) return std::nullopt;
    std::size_t supplementalSize = frame[frame.size() - kMarkerSize - 1];
    // The supplemental part holds at least the tag, a 1-byte nonce, its size byte and the marker.
    if (supplementalSize < kTagSize + 1 + 1 + kMarkerSize || supplementalSize > frame.size()) return std::nullopt;

    std::size_t bodySize = frame.size() - supplementalSize;
    ParsedFrame parsed;
    parsed.body = frame.first(bodySize);
    parsed.tag = frame.subspan(bodySize, kTagSize);

    // Nonce and ranges lie between the tag and the size byte.
    std::span<const uint8_t> varints =
        frame.subspan(bodySize + kTagSize, supplementalSize - kTagSize - 1 - kMarkerSize);
    std::size_t position = 0;
    auto nonce = ReadLeb128(varints, position);
    if (!nonce || *nonce > UINT32_MAX) return std::nullopt;
    parsed.nonce = static_cast<uint32_t>(*nonce);

    std::size_t previousEnd = 0;
    while (position < varints.size()) {
        auto offset = ReadLeb128(varints, position);
        if (!offset) return std::nullopt;
        auto size = ReadLeb128(varints, position);
        if (!size) return std::nullopt;
        // Ranges must be ascending, disjoint and inside the body (also rules out overflow of offset + size).
        if (*offset < previousEnd || *offset > bodySize || *size > bodySize - *offset) return std::nullopt;
        parsed.unencryptedRanges.push_back({static_cast<std::size_t>(*offset), static_cast<std::size_t>(*size)});
        previousEnd = static_cast<std::size_t>(*offset + *size);
    }
    return parsed;
}

std::array<uint8_t, kIvSize> MakeIv(uint32_t nonce) {
    std::array<uint8_t, kIvSize> iv{};
    for (std::size_t i = 0; i < 4; ++i) iv[8 + i] = static_cast<uint8_t>(nonce >> (8 * i));
    return iv;
}

}  // namespace svcpp::core::voice::e2ee
