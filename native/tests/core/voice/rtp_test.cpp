// RTP header build/parse (CSRCs, the 0xBEDE extension), packet classification, RTCP reports, sequence arithmetic.
#include <gtest/gtest.h>

#include "voice/media/rtp.hpp"
#include "voice_test_bytes.hpp"

using namespace svcpp::core::voice;

TEST(Rtp, WritesTheTwelveByteHeaderBigEndian) {
    RtpHeader h;
    h.sequence = 0x1234;
    h.timestamp = 0x89ABCDEF;
    h.ssrc = 0x01020304;
    std::vector<uint8_t> out(12);
    ASSERT_EQ(WriteRtpHeader(h, out), 12u);
    EXPECT_EQ(ToHex(out), "8078123489abcdef01020304");
    std::vector<uint8_t> small(11);
    EXPECT_EQ(WriteRtpHeader(h, small), 0u);
}

TEST(Rtp, ParsesWhatItWrites) {
    RtpHeader h;
    h.sequence = 65535;
    h.timestamp = 4294967295u;
    h.ssrc = 42;
    h.marker = true;
    std::vector<uint8_t> out(12);
    WriteRtpHeader(h, out);
    auto parsed = ParseRtpHeader(out);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->payloadType, kOpusPayloadType);
    EXPECT_TRUE(parsed->marker);
    EXPECT_EQ(parsed->sequence, 65535);
    EXPECT_EQ(parsed->timestamp, 4294967295u);
    EXPECT_EQ(parsed->ssrc, 42u);
    EXPECT_EQ(parsed->headerSize, 12u);
    EXPECT_FALSE(parsed->hasExtension);
    EXPECT_EQ(parsed->extensionBodySize, 0u);
}

// X=1 with the RFC 8285 one-byte profile, 2 words of extension, and one CSRC: the authenticated header is
// 12 + 4 + 4 bytes, and 8 bytes of (encrypted) extension body precede the payload.
TEST(Rtp, AccountsForCsrcsAndTheExtensionPreamble) {
    auto packet = FromHex(
        "9178000100000960000000aa"
        "000000bb"
        "bede0002"
        "1122334455667788"
        "f8fffe");
    auto h = ParseRtpHeader(packet);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->csrcCount, 1);
    EXPECT_TRUE(h->hasExtension);
    EXPECT_EQ(h->extensionProfile, 0xBEDE);
    EXPECT_EQ(h->headerSize, 20u);
    EXPECT_EQ(h->extensionBodySize, 8u);
    EXPECT_EQ(h->ssrc, 0xAAu);
}

TEST(Rtp, RefusesTruncatedOrForeignPackets) {
    EXPECT_FALSE(ParseRtpHeader(FromHex("8078000100000960000000")));            // 11 bytes
    EXPECT_FALSE(ParseRtpHeader(FromHex("4078000100000960000000aa")));          // version 1
    EXPECT_FALSE(ParseRtpHeader(FromHex("8278000100000960000000aa00000001")));  // CC=2, one CSRC present
    EXPECT_FALSE(ParseRtpHeader(FromHex("9078000100000960000000aabede")));      // extension preamble cut
    EXPECT_FALSE(ParseRtpHeader(FromHex("80c9000700000001")));                  // RTCP receiver report
}

TEST(Rtp, ClassifiesWhatArrivesOnTheVoiceSocket) {
    EXPECT_EQ(ClassifyPacket(FromHex("8078000100000960000000aa0102")), PacketKind::Rtp);
    EXPECT_EQ(ClassifyPacket(FromHex("81c9000700000001")), PacketKind::Rtcp);
    EXPECT_EQ(ClassifyPacket(FromHex("80c8000600000001")), PacketKind::Rtcp);
    std::vector<uint8_t> discovery(74);
    discovery[1] = 2;
    discovery[3] = 70;
    EXPECT_EQ(ClassifyPacket(discovery), PacketKind::IpDiscovery);
    EXPECT_EQ(ClassifyPacket(FromHex("0100000000000000")), PacketKind::Unknown);  // 8-byte keepalive
    EXPECT_EQ(ClassifyPacket(FromHex("80")), PacketKind::Unknown);
}

TEST(Rtp, ParsesAReceiverReportWithItsBlocks) {
    // RR, RC=1, length 7 words → 32 bytes; block: ssrc 0x0a0b0c0d, 25% lost, cumulative −2, highest 0x00010005, jitter
    // 96
    auto packet = FromHex(
        "81c90007"
        "00000001"
        "0a0b0c0d"
        "40fffffe"
        "00010005"
        "00000060"
        "00000000"
        "00000000");
    auto r = ParseRtcp(packet);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->packetType, 201);
    EXPECT_EQ(r->senderSsrc, 1u);
    EXPECT_EQ(r->length, 32u);
    ASSERT_EQ(r->blockCount, 1);
    EXPECT_EQ(r->blocks[0].ssrc, 0x0a0b0c0du);
    EXPECT_EQ(r->blocks[0].fractionLost, 0x40);
    EXPECT_EQ(r->blocks[0].cumulativeLost, -2);
    EXPECT_EQ(r->blocks[0].highestSequence, 0x00010005u);
    EXPECT_EQ(r->blocks[0].jitter, 96u);
}

TEST(Rtp, SkipsTheSenderInfoOfASenderReport) {
    auto packet = FromHex(
        "81c8000c"
        "00000009"
        "0000000000000000"
        "00000000"
        "00000000"
        "00000000"
        "00000007"
        "0100000a"
        "00000064"
        "00000003"
        "00000000"
        "00000000");
    auto r = ParseRtcp(packet);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->packetType, 200);
    ASSERT_EQ(r->blockCount, 1);
    EXPECT_EQ(r->blocks[0].ssrc, 7u);
    EXPECT_EQ(r->blocks[0].cumulativeLost, 10);
    EXPECT_EQ(r->blocks[0].highestSequence, 100u);
}

TEST(Rtp, RefusesMalformedRtcp) {
    EXPECT_FALSE(ParseRtcp(FromHex("81c90007000000010a0b0c0d")));  // length says 32 bytes, 12 present
    EXPECT_FALSE(
        ParseRtcp(FromHex("82c9000200000001"
                          "00000000")));  // 2 blocks announced, none fit
    auto bye = ParseRtcp(FromHex("81cb000100000005"));
    ASSERT_TRUE(bye);
    EXPECT_EQ(bye->packetType, 203);
    EXPECT_EQ(bye->blockCount, 0);
}

TEST(Rtp, SequenceAndTimestampArithmeticWraps) {
    EXPECT_EQ(SequenceDelta(65535, 0), 1);
    EXPECT_EQ(SequenceDelta(0, 65535), -1);
    EXPECT_TRUE(SequenceNewer(65530, 3));
    EXPECT_FALSE(SequenceNewer(3, 65530));
    EXPECT_EQ(TimestampDelta(4294966336u, 0u), 960);
}
