// JitterBuffer: reordering (with 16-bit wrap), duplicates and late packets, FEC/PLC decisions, the adaptive target
// delay, delay shrinking, idle after the sender stops, and its refusals. Time is passed in explicitly (µs).
#include <gtest/gtest.h>

#include <vector>

#include "voice/media/jitter_buffer.hpp"

using namespace svcpp::core::voice;

namespace {

constexpr int64_t kFrameUs = 20000;
// Packets pushed together look jittery (their timestamps advance, their arrival does not), which raises the target
// delay: tests that push a burst start playing out this late, past any target.
constexpr int64_t kAfterAnyTarget = 1000000;

std::vector<uint8_t> PayloadFor(uint16_t seq) { return {uint8_t(seq & 0xFF), uint8_t(seq >> 8), 0x42}; }

uint16_t SeqOf(std::span<const uint8_t> payload) { return uint16_t(payload[0] | payload[1] << 8); }

JitterPushResult PushSeq(JitterBuffer &jb, uint16_t seq, int64_t atUs) {
    return jb.Push(seq, uint32_t(seq) * 960u, PayloadFor(seq), atUs);
}

}  // namespace

TEST(JitterBuffer, HoldsTheTargetDelayThenPlaysInOrder) {
    JitterBuffer jb;
    EXPECT_EQ(jb.Pop(0).kind, JitterFrameKind::Idle);
    ASSERT_EQ(PushSeq(jb, 100, 0), JitterPushResult::Accepted);
    EXPECT_EQ(jb.Pop(10000).kind, JitterFrameKind::Idle);  // 10 ms < 20 ms target
    ASSERT_EQ(PushSeq(jb, 101, kFrameUs), JitterPushResult::Accepted);
    auto f = jb.Pop(kFrameUs);
    ASSERT_EQ(f.kind, JitterFrameKind::Packet);
    EXPECT_EQ(f.sequence, 100);
    EXPECT_EQ(SeqOf(f.payload), 100);
    f = jb.Pop(2 * kFrameUs);
    ASSERT_EQ(f.kind, JitterFrameKind::Packet);
    EXPECT_EQ(SeqOf(f.payload), 101);
    EXPECT_EQ(jb.Stats().played, 2u);
}

TEST(JitterBuffer, ReordersAcrossTheSequenceWrap) {
    JitterBuffer jb;
    for (uint16_t seq : {uint16_t(65535), uint16_t(1), uint16_t(65534), uint16_t(0)})
        ASSERT_EQ(PushSeq(jb, seq, 0), JitterPushResult::Accepted);
    std::vector<uint16_t> played;
    for (int i = 0; i < 4; ++i) {
        auto f = jb.Pop(kAfterAnyTarget + kFrameUs * i);
        ASSERT_EQ(f.kind, JitterFrameKind::Packet);
        played.push_back(SeqOf(f.payload));
    }
    EXPECT_EQ(played, (std::vector<uint16_t>{65534, 65535, 0, 1}));
}

TEST(JitterBuffer, DropsDuplicatesAndLatePackets) {
    JitterBuffer jb;
    PushSeq(jb, 10, 0);
    EXPECT_EQ(PushSeq(jb, 10, 1000), JitterPushResult::Duplicate);
    PushSeq(jb, 11, 1000);
    ASSERT_EQ(jb.Pop(kAfterAnyTarget).kind, JitterFrameKind::Packet);  // plays 10
    EXPECT_EQ(PushSeq(jb, 10, kAfterAnyTarget), JitterPushResult::Late);
    EXPECT_EQ(PushSeq(jb, 9, kAfterAnyTarget), JitterPushResult::Late);
    EXPECT_EQ(jb.Stats().duplicates, 1u);
    EXPECT_EQ(jb.Stats().late, 2u);
}

TEST(JitterBuffer, AMissingFrameIsRecoveredByFecWhenTheNextIsHereElseConcealed) {
    JitterBuffer jb;
    for (uint16_t seq : {1, 3, 6}) PushSeq(jb, seq, 0);  // 2 lost (3 here), 4 and 5 lost (6 here)
    std::vector<JitterFrameKind> kinds;
    std::vector<uint16_t> payloadSeq;
    for (int i = 0; i < 6; ++i) {
        auto f = jb.Pop(kAfterAnyTarget + kFrameUs * i);
        kinds.push_back(f.kind);
        payloadSeq.push_back(f.payload.empty() ? 0 : SeqOf(f.payload));
        EXPECT_EQ(f.sequence, 1 + i);
    }
    using K = JitterFrameKind;
    EXPECT_EQ(kinds, (std::vector<K>{K::Packet, K::Fec, K::Packet, K::Missing, K::Fec, K::Packet}));
    EXPECT_EQ(payloadSeq, (std::vector<uint16_t>{1, 3, 3, 0, 6, 6}));  // FEC reads packet n+1
    EXPECT_EQ(jb.Stats().fecRecovered, 2u);
    EXPECT_EQ(jb.Stats().concealed, 1u);
}

TEST(JitterBuffer, UnderrunConcealsWithoutSkippingADelayedPacket) {
    JitterBuffer jb;
    PushSeq(jb, 1, 0);
    ASSERT_EQ(jb.Pop(kFrameUs).kind, JitterFrameKind::Packet);
    auto f = jb.Pop(2 * kFrameUs);  // 2 is late: conceal, but wait for it
    EXPECT_EQ(f.kind, JitterFrameKind::Missing);
    EXPECT_EQ(f.sequence, 2);
    ASSERT_EQ(PushSeq(jb, 2, 2 * kFrameUs + 5000), JitterPushResult::Accepted);
    f = jb.Pop(3 * kFrameUs);
    ASSERT_EQ(f.kind, JitterFrameKind::Packet);
    EXPECT_EQ(SeqOf(f.payload), 2);
}

TEST(JitterBuffer, GoesIdleWhenTheSenderStopsAndRebuffersOnItsReturn) {
    JitterBufferConfig config;
    config.idleAfterFrames = 3;
    JitterBuffer jb(config);
    PushSeq(jb, 1, 0);
    jb.Pop(kFrameUs);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(jb.Pop(kFrameUs * (2 + i)).kind, JitterFrameKind::Missing);
    EXPECT_EQ(jb.Pop(kFrameUs * 5).kind, JitterFrameKind::Idle);
    EXPECT_EQ(jb.Pop(kFrameUs * 6).kind, JitterFrameKind::Idle);
    // The sender talks again: its sequence continues, its timestamp advanced through the silence (packet 1 had
    // timestamp 960 at t=0, so 8 × 960 at t=140 ms is on time). Buffered for the
    // target delay, then played.
    EXPECT_EQ(PushSeq(jb, 1, kFrameUs * 7), JitterPushResult::Late);  // an old straggler stays late
    ASSERT_EQ(jb.Push(2, 8 * 960, PayloadFor(2), kFrameUs * 7), JitterPushResult::Accepted);
    EXPECT_EQ(jb.Pop(kFrameUs * 7).kind, JitterFrameKind::Idle);
    auto f = jb.Pop(kFrameUs * 8);
    ASSERT_EQ(f.kind, JitterFrameKind::Packet);
    EXPECT_EQ(SeqOf(f.payload), 2);
}

TEST(JitterBuffer, TargetDelayStaysMinimalForSteadyArrivalsAndGrowsWithJitter) {
    JitterBufferConfig config;
    config.capacity = 1024;  // nothing is played out here: room for the whole run
    JitterBuffer steady(config);
    for (uint16_t i = 0; i < 100; ++i) PushSeq(steady, i, i * kFrameUs);
    EXPECT_EQ(steady.TargetDelayMs(), 20);
    EXPECT_NEAR(steady.JitterMs(), 0.0, 0.01);

    JitterBuffer jittery(config);  // packets arrive 0 or 30 ms late, alternately
    for (uint16_t i = 0; i < 200; ++i) PushSeq(jittery, i, i * kFrameUs + (i % 2 ? 30000 : 0));
    EXPECT_GT(jittery.JitterMs(), 20.0);
    EXPECT_GE(jittery.TargetDelayMs(), 100);
    EXPECT_LE(jittery.TargetDelayMs(), 200);
    EXPECT_EQ(jittery.TargetDelayMs() % 20, 0);

    JitterBuffer wild(config);  // far beyond the range: capped at 200 ms
    for (uint16_t i = 0; i < 100; ++i) PushSeq(wild, i, i * kFrameUs + (i % 2 ? 400000 : 0));
    EXPECT_EQ(wild.TargetDelayMs(), 200);
}

TEST(JitterBuffer, ShrinksAPersistentlyOversizedDelayByDroppingFrames) {
    JitterBufferConfig config;
    config.capacity = 64;
    JitterBuffer jb(config);
    // A stall then a burst: 30 frames (600 ms) arrive at once, then the stream continues in real time. The target
    // stays low (arrival jitter of a single burst is small on average), so the excess must be played off.
    for (uint16_t i = 0; i < 30; ++i) PushSeq(jb, i, 0);
    uint16_t next = 30;
    for (int tick = 1; tick <= 60; ++tick) {
        jb.Pop(kFrameUs * tick);
        PushSeq(jb, next, kFrameUs * tick);
        ++next;
    }
    EXPECT_GT(jb.Stats().dropped, 0u);
    EXPECT_LE(jb.BufferedFrames() * 20, std::size_t(jb.TargetDelayMs() + 40));
    EXPECT_EQ(jb.Stats().played + jb.Stats().dropped + jb.BufferedFrames(), 90u);
}

TEST(JitterBuffer, AShortBurstCostsNoAudio) {
    JitterBuffer jb;
    for (uint16_t i = 0; i < 8; ++i) PushSeq(jb, i, 0);
    for (int tick = 0; tick < 8; ++tick) EXPECT_EQ(jb.Pop(kAfterAnyTarget + kFrameUs * tick).kind, JitterFrameKind::Packet);
    EXPECT_EQ(jb.Stats().dropped, 0u);
}

TEST(JitterBuffer, RefusesOversizedPayloadsAndPacketsBeyondItsCapacity) {
    JitterBuffer jb;
    std::vector<uint8_t> huge(kMaxOpusPacketBytes + 1);
    EXPECT_EQ(jb.Push(1, 960, huge, 0), JitterPushResult::TooLarge);
    PushSeq(jb, 1, 0);
    EXPECT_EQ(PushSeq(jb, 1 + 16, 0), JitterPushResult::Overflow);  // default capacity 16
    EXPECT_EQ(PushSeq(jb, 1 + 15, 0), JitterPushResult::Accepted);
    jb.Pop(kFrameUs);
    EXPECT_EQ(PushSeq(jb, 2 + 16, kFrameUs), JitterPushResult::Overflow);
    EXPECT_EQ(jb.Stats().overflows, 2u);
}

TEST(JitterBuffer, ResetForgetsEverything) {
    JitterBuffer jb;
    PushSeq(jb, 1, 0);
    PushSeq(jb, 2, 0);
    jb.Pop(kFrameUs);
    jb.Reset();
    EXPECT_EQ(jb.BufferedFrames(), 0u);
    EXPECT_EQ(jb.Pop(kFrameUs * 2).kind, JitterFrameKind::Idle);
    EXPECT_EQ(PushSeq(jb, 1, kFrameUs * 2), JitterPushResult::Accepted);  // not "late" any more
}
