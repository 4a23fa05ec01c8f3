#include "voice/media/frame_transform.hpp"

#include <cstring>

namespace svcpp::core::voice {

namespace {
std::optional<std::size_t> Copy(std::span<const uint8_t> frame, std::span<uint8_t> out) {
    if (out.size() < frame.size()) return std::nullopt;
    if (!frame.empty()) std::memmove(out.data(), frame.data(), frame.size());
    return frame.size();
}
}  // namespace

std::optional<std::size_t> PassThroughFrameTransform::Encrypt(uint32_t, std::span<const uint8_t> frame,
                                                              std::span<uint8_t> out) {
    return Copy(frame, out);
}

std::optional<std::size_t> PassThroughFrameTransform::Decrypt(uint64_t, uint32_t, std::span<const uint8_t> frame,
                                                              std::span<uint8_t> out) {
    return Copy(frame, out);
}

}  // namespace svcpp::core::voice
