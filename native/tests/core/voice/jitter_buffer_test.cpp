// JitterBuffer: reordering (with 16-bit wrap), duplicates and late packets, FEC/PLC decisions, the adaptive target
// delay, how a delay above the target is played off (silence skipped, speech kept below maxQueuedMs), idle after the
// sender stops, and its refusals. Time is passed in explicitly (µs).
#include <gtest/gtest.h>

#include <algorithm>
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

JitterPushResult PushSilence(JitterBuffer &jb, uint16_t seq, int64_t atUs) {
    return jb.Push(seq, uint32_t(seq) * 960u, kOpusSilenceFrame, atUs);
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

TEST(JitterBuffer, AStallShorterThanMaxQueuedCostsNoSpeechAndThePhrasesEndGivesTheDelayBack) {
    JitterBuffer jb;  // defaults: maxQueuedMs 500, capacity 64
    // A 400 ms stall upstream, then its 20 frames arrive at once and the stream continues in real time: 60 frames of
    // speech, then the five silence frames that end a phrase, then the next phrase after a pause.
    for (uint16_t i = 0; i < 20; ++i) PushSeq(jb, i, 0);
    uint16_t next = 20;
    int64_t now = 0;
    for (int tick = 1; tick <= 40; ++tick) {
        now = kFrameUs * tick;
        jb.Pop(now);
        PushSeq(jb, next++, now);
    }
    for (int i = 0; i < 5; ++i) {
        now += kFrameUs;
        jb.Pop(now);
        PushSilence(jb, next++, now);
    }
    EXPECT_GT(jb.BufferedFrames(), 10u) << "the stall's delay is still there while the phrase goes on";
    for (int tick = 0; tick < 60; ++tick) jb.Pop(now += kFrameUs);  // the pause: the buffer drains, then idles
    const uint16_t phrase = next;
    for (int i = 0; i < 3; ++i) PushSeq(jb, next++, now + kFrameUs * i);
    JitterFrame first;
    while ((first = jb.Pop(now += kFrameUs)).kind == JitterFrameKind::Idle) {}
    EXPECT_EQ(first.sequence, phrase);
    EXPECT_EQ(jb.Stats().dropped, 0u);
    EXPECT_EQ(jb.Stats().overflows, 0u);
    EXPECT_EQ(jb.Stats().played + jb.Stats().silenceSkipped, 66u) << "every frame before the new phrase, and its first";
    EXPECT_LE(jb.BufferedFrames(), 3u) << "the new phrase starts at the target delay, not behind the old stall";
}

TEST(JitterBuffer, SilenceFramesAboveTheTargetAreSkippedAtOnce) {
    JitterBuffer jb;
    for (uint16_t i = 0; i < 5; ++i) PushSeq(jb, i, 0);
    for (uint16_t i = 5; i < 10; ++i) PushSilence(jb, i, 0);
    for (uint16_t i = 10; i < 15; ++i) PushSeq(jb, i, 0);
    std::vector<uint16_t> played;
    for (int tick = 0; tick < 12; ++tick) {
        const JitterFrame frame = jb.Pop(kAfterAnyTarget + kFrameUs * tick);
        if (frame.kind == JitterFrameKind::Packet) played.push_back(frame.sequence);
    }
    // The target of this jittery burst is well above a frame: the silence frames are only skipped while more than
    // target + 1 frame is queued behind them, so some may still play; no speech frame is skipped.
    EXPECT_GT(jb.Stats().silenceSkipped, 0u);
    EXPECT_EQ(jb.Stats().dropped, 0u);
    for (uint16_t speech : {0, 1, 2, 3, 4, 10, 11})
        EXPECT_NE(std::ranges::find(played, speech), played.end()) << speech;
}

TEST(JitterBuffer, EachPopReportsTheSilenceFramesItSkippedSoEveryFrameIsAccountedFor) {
    JitterBuffer jb;
    for (uint16_t i = 0; i < 5; ++i) PushSeq(jb, i, 0);
    for (uint16_t i = 5; i < 10; ++i) PushSilence(jb, i, 0);
    for (uint16_t i = 10; i < 15; ++i) PushSeq(jb, i, 0);
    uint64_t packets = 0;
    uint64_t skippedReported = 0;
    for (int tick = 0; tick < 30; ++tick) {
        const JitterFrame frame = jb.Pop(kAfterAnyTarget + kFrameUs * tick);
        if (frame.kind == JitterFrameKind::Packet) ++packets;
        skippedReported += frame.silenceSkipped;
    }
    // A caller counting frames played out (CallMedia::FramesPlayedFrom) sees each of the 15 exactly once: decoded,
    // or skipped as silence and reported by the Pop that skipped it.
    EXPECT_GT(skippedReported, 0u);
    EXPECT_EQ(skippedReported, jb.Stats().silenceSkipped);
    EXPECT_EQ(packets + skippedReported, 15u);
}

TEST(JitterBuffer, AStallLongerThanMaxQueuedSkipsSpeechDownToIt) {
    JitterBuffer jb;
    // 900 ms of frames at once, then real time: the excess above maxQueuedMs (500 ms = 25 frames) is played off by
    // skipping speech, one frame per tick after 200 ms; what is below it is kept.
    for (uint16_t i = 0; i < 45; ++i) PushSeq(jb, i, 0);
    uint16_t next = 45;
    for (int tick = 1; tick <= 80; ++tick) {
        jb.Pop(kFrameUs * tick);
        PushSeq(jb, next++, kFrameUs * tick);
    }
    EXPECT_GT(jb.Stats().dropped, 0u);
    EXPECT_LE(jb.BufferedFrames(), 26u);
    EXPECT_GE(jb.BufferedFrames(), 24u) << "nothing below maxQueuedMs is skipped";
    EXPECT_EQ(jb.Stats().played + jb.Stats().dropped + jb.BufferedFrames(), 125u);
}

TEST(JitterBuffer, ABurstBeyondTheCapacityKeepsTheNewestFrames) {
    JitterBufferConfig config;
    config.capacity = 16;
    JitterBuffer jb(config);
    PushSeq(jb, 1, 0);
    ASSERT_EQ(jb.Pop(kFrameUs).kind, JitterFrameKind::Packet);  // playing; 2 is due next
    for (uint16_t seq = 2; seq <= 40; ++seq) EXPECT_EQ(PushSeq(jb, seq, kFrameUs), JitterPushResult::Accepted) << seq;
    EXPECT_EQ(jb.Stats().overflows, 23u);  // 2…24 made room for 25…40
    EXPECT_EQ(jb.BufferedFrames(), 16u);
    const JitterFrame frame = jb.Pop(kFrameUs * 2);
    ASSERT_EQ(frame.kind, JitterFrameKind::Packet);
    EXPECT_EQ(frame.sequence, 25);
    EXPECT_EQ(PushSeq(jb, 20, kFrameUs * 2), JitterPushResult::Late);  // discarded frames stay gone
}

TEST(JitterBuffer, AShortBurstCostsNoAudio) {
    JitterBuffer jb;
    for (uint16_t i = 0; i < 8; ++i) PushSeq(jb, i, 0);
    for (int tick = 0; tick < 8; ++tick)
        EXPECT_EQ(jb.Pop(kAfterAnyTarget + kFrameUs * tick).kind, JitterFrameKind::Packet);
    EXPECT_EQ(jb.Stats().dropped, 0u);
}

TEST(JitterBuffer, RefusesOversizedPayloadsAndBurstsBeyondItsCapacityWhileBuffering) {
    JitterBufferConfig config;
    config.capacity = 16;
    JitterBuffer jb(config);
    std::vector<uint8_t> huge(kMaxOpusPacketBytes + 1);
    EXPECT_EQ(jb.Push(1, 960, huge, 0), JitterPushResult::TooLarge);
    PushSeq(jb, 1, 0);
    EXPECT_EQ(PushSeq(jb, 1 + 16, 0), JitterPushResult::Overflow);  // not playing yet: nothing to make room with
    EXPECT_EQ(PushSeq(jb, 1 + 15, 0), JitterPushResult::Accepted);
    EXPECT_EQ(jb.Stats().overflows, 1u);
    JitterBuffer defaults;  // capacity 64 frames (1.28 s)
    PushSeq(defaults, 1, 0);
    EXPECT_EQ(PushSeq(defaults, 1 + 63, 0), JitterPushResult::Accepted);
    EXPECT_EQ(PushSeq(defaults, 1 + 64, 0), JitterPushResult::Overflow);
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
