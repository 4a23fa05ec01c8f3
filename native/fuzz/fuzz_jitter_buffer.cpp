// libFuzzer target: the jitter buffer (voice/media/jitter_buffer.cpp) under arbitrary packet sequences: any
// sequence number, timestamp, size and arrival order a sender (or an attacker with the key) can produce, interleaved
// with playout. It must never crash, never hand out a payload larger than kMaxOpusPacketBytes, and keep its adaptive
// delay within the configured bounds.
//
// Input: records of 8 bytes — op (even: push, odd: pop), sequence (2), timestamp delta (2), payload size (2),
// arrival step (1).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "voice/media/jitter_buffer.hpp"
#include "voice/media/opus_codec.hpp"

using namespace svcpp::core::voice;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    JitterBufferConfig config;
    if (size > 0) config.capacity = 1 + data[0] % 64;
    JitterBuffer buffer(config);
    static std::array<uint8_t, kMaxOpusPacketBytes + 64> payload{};
    int64_t now = 0;
    uint32_t timestamp = 0;
    for (size_t i = 1; i + 8 <= size; i += 8) {
        const uint8_t *r = data + i;
        const uint16_t sequence = static_cast<uint16_t>(r[1] | r[2] << 8);
        timestamp += static_cast<uint32_t>(r[3] | r[4] << 8);
        const size_t length = static_cast<size_t>(r[5] | r[6] << 8) % payload.size();
        now += static_cast<int64_t>(r[7]) * 500;  // up to ~127 ms between events
        if (r[0] % 2 == 0) {
            payload[0] = r[1];
            (void)buffer.Push(sequence, timestamp, std::span<const uint8_t>(payload.data(), length), now);
        } else {
            const JitterFrame frame = buffer.Pop(now);
            if (frame.payload.size() > kMaxOpusPacketBytes) __builtin_trap();
        }
        if (buffer.TargetDelayMs() < config.minDelayMs || buffer.TargetDelayMs() > config.maxDelayMs) __builtin_trap();
        if (buffer.BufferedFrames() > 1024) __builtin_trap();
    }
    return 0;
}
