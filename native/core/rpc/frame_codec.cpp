#include "rpc/frame_codec.hpp"

namespace svcpp::core::rpc {

namespace {
void PutU32(std::string &out, uint32_t value) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

uint32_t GetU32(const char *p) {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    return value;
}
}  // namespace

std::string EncodeFrame(Opcode opcode, std::string_view body) {
    std::string out;
    out.reserve(kHeaderBytes + body.size());
    PutU32(out, static_cast<uint32_t>(opcode));
    PutU32(out, static_cast<uint32_t>(body.size()));
    out.append(body);
    return out;
}

void FrameDecoder::Feed(std::string_view bytes) {
    if (Failed()) return;
    // Compact once the consumed prefix dominates, so a long-lived connection does not grow its buffer forever.
    if (offset_ > 0 && offset_ * 2 >= buffer_.size()) {
        buffer_.erase(0, offset_);
        offset_ = 0;
    }
    buffer_.append(bytes);
}

std::optional<Frame> FrameDecoder::Next() {
    if (Failed() || Buffered() < kHeaderBytes) return std::nullopt;
    const char *header = buffer_.data() + offset_;
    const uint32_t opcode = GetU32(header);
    const uint32_t length = GetU32(header + 4);
    // Judged from the header alone: a bad header is refused before its body is waited for.
    if (opcode > static_cast<uint32_t>(Opcode::Pong)) {
        failure_ = "unknown opcode " + std::to_string(opcode);
        return std::nullopt;
    }
    if (length > kMaxFrameBytes) {
        failure_ =
            "frame too large: " + std::to_string(length) + " bytes (at most " + std::to_string(kMaxFrameBytes) + ")";
        return std::nullopt;
    }
    if (Buffered() < kHeaderBytes + length) return std::nullopt;
    Frame frame{static_cast<Opcode>(opcode), buffer_.substr(offset_ + kHeaderBytes, length)};
    offset_ += kHeaderBytes + length;
    return frame;
}

}  // namespace svcpp::core::rpc
