// OpusFrameEncoder / OpusFrameDecoder: configuration checks, round trip of a tone, PLC and FEC on loss, the silence
// frame.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "voice/media/opus_codec.hpp"
#include "voice_test_signals.hpp"

using namespace svcpp::core::voice;

TEST(OpusCodec, RefusesOutOfRangeConfiguration) {
    OpusEncoderConfig config;
    config.bitrate = 1000;
    EXPECT_EQ(OpusFrameEncoder::Create(config), nullptr);
    config = {};
    config.expectedLossPercent = 101;
    EXPECT_EQ(OpusFrameEncoder::Create(config), nullptr);
    config = {};
    config.complexity = 11;
    EXPECT_EQ(OpusFrameEncoder::Create(config), nullptr);
    EXPECT_NE(OpusFrameEncoder::Create(), nullptr);
}

TEST(OpusCodec, RuntimeSettersValidateAndKeepTheOldValue) {
    auto encoder = OpusFrameEncoder::Create();
    ASSERT_TRUE(encoder);
    EXPECT_FALSE(encoder->SetBitrate(5999));
    EXPECT_FALSE(encoder->SetExpectedLossPercent(-1));
    EXPECT_EQ(encoder->Config().bitrate, 64000);
    EXPECT_EQ(encoder->Config().expectedLossPercent, 10);
    EXPECT_TRUE(encoder->SetBitrate(32000));
    EXPECT_TRUE(encoder->SetExpectedLossPercent(25));
    EXPECT_TRUE(encoder->SetDtx(true));
    EXPECT_EQ(encoder->Config().bitrate, 32000);
    EXPECT_EQ(encoder->Config().expectedLossPercent, 25);
    EXPECT_TRUE(encoder->Config().dtx);
}

TEST(OpusCodec, EncodeRefusesAWrongFrameSize) {
    auto encoder = OpusFrameEncoder::Create();
    std::vector<int16_t> pcm(kOpusFrameSamples - 2);
    std::vector<uint8_t> out(kMaxOpusPacketBytes);
    EXPECT_LT(encoder->Encode(pcm, out), 0);
}

TEST(OpusCodec, ToneSurvivesARoundTripWithItsFrequency) {
    auto encoder = OpusFrameEncoder::Create();
    auto decoder = OpusFrameDecoder::Create();
    ASSERT_TRUE(encoder && decoder);
    ToneGenerator tone(440.0, 0.5);
    std::vector<int16_t> in(kOpusFrameSamples), out(kOpusFrameSamples), received;
    std::vector<uint8_t> packet(kMaxOpusPacketBytes);
    for (int frame = 0; frame < 50; ++frame) {
        tone.Fill(in);
        int size = encoder->Encode(in, packet);
        ASSERT_GT(size, 0);
        ASSERT_EQ(decoder->Decode(std::span(packet).first(size), out), 960);
        received.insert(received.end(), out.begin(), out.end());
    }
    // Skip the first 100 ms (codec start-up), then count zero crossings of the left channel.
    auto left = LeftChannel(std::span(received).subspan(10 * kOpusFrameSamples));
    EXPECT_NEAR(EstimateFrequency(left, kSampleRate), 440.0, 5.0);
    EXPECT_GT(Rms(left), 0.2 * 32768 * 0.5);  // the level is kept, roughly
}

TEST(OpusCodec, SilenceFrameIsRecognisedAndDecodesToSilence) {
    EXPECT_TRUE(IsOpusSilenceFrame(kOpusSilenceFrame));
    const uint8_t other[] = {0xF8, 0xFF, 0xFF};
    EXPECT_FALSE(IsOpusSilenceFrame(other));
    EXPECT_FALSE(IsOpusSilenceFrame(std::span(kOpusSilenceFrame).first(2)));
    auto decoder = OpusFrameDecoder::Create();
    std::vector<int16_t> out(kOpusFrameSamples, 1234);
    ASSERT_EQ(decoder->Decode(kOpusSilenceFrame, out), 960);
    for (int16_t s : out) ASSERT_EQ(s, 0);
}

TEST(OpusCodec, CorruptPacketIsAnErrorAndYieldsSilence) {
    auto decoder = OpusFrameDecoder::Create();
    std::vector<int16_t> out(kOpusFrameSamples, 99);
    const uint8_t garbage[] = {0x0B};  // code 3 packet without its frame-count byte
    EXPECT_LT(decoder->Decode(garbage, out), 0);
    for (int16_t s : out) ASSERT_EQ(s, 0);
    std::vector<int16_t> tooSmall(100);
    EXPECT_LT(decoder->Decode(kOpusSilenceFrame, tooSmall), 0);
}

// Frame n is lost; the decoder rebuilds it from packet n+1's in-band FEC. The tone changes pitch exactly at the lost
// frame: concealment can only extrapolate the old pitch, FEC carries the new one.
TEST(OpusCodec, FecRebuildsALostFrameFromTheNextPacket) {
    OpusEncoderConfig config;
    config.expectedLossPercent = 20;
    auto encoder = OpusFrameEncoder::Create(config);
    ASSERT_TRUE(encoder);
    const int lost = 30;
    ToneGenerator before(300.0, 0.4), after(700.0, 0.4);
    std::vector<std::vector<uint8_t>> packets;
    for (int frame = 0; frame < 40; ++frame) {
        std::vector<int16_t> in(kOpusFrameSamples);
        (frame < lost ? before : after).Fill(in);
        std::vector<uint8_t> packet(kMaxOpusPacketBytes);
        int size = encoder->Encode(in, packet);
        ASSERT_GT(size, 0);
        packet.resize(size);
        packets.push_back(packet);
    }
    auto decodeLostFrame = [&](bool useFec) {
        auto decoder = OpusFrameDecoder::Create();
        std::vector<int16_t> out(kOpusFrameSamples);
        for (int n = 0; n < lost; ++n) EXPECT_EQ(decoder->Decode(packets[n], out), 960);
        EXPECT_EQ(useFec ? decoder->DecodeFec(packets[lost + 1], out) : decoder->DecodeLost(out), 960);
        auto left = LeftChannel(out);
        return std::vector<int16_t>(left.begin() + left.size() / 2, left.end());  // past the decoder's cross-fade
    };
    auto fec = decodeLostFrame(true);
    auto plc = decodeLostFrame(false);
    EXPECT_NEAR(EstimateFrequency(fec, kSampleRate), 700.0, 60.0);
    EXPECT_GT(Rms(fec), 0.1 * 32768 * 0.4);
    EXPECT_LT(EstimateFrequency(plc, kSampleRate), 500.0);  // concealment went on with the old pitch
}

TEST(OpusCodec, DecodeFecWithoutANextPacketConceals) {
    auto decoder = OpusFrameDecoder::Create();
    std::vector<int16_t> out(kOpusFrameSamples);
    EXPECT_EQ(decoder->DecodeFec({}, out), 960);
}

TEST(OpusCodec, PlcContinuesTheSignalAfterALoss) {
    auto encoder = OpusFrameEncoder::Create();
    auto decoder = OpusFrameDecoder::Create();
    ToneGenerator tone(500.0, 0.5);
    std::vector<int16_t> in(kOpusFrameSamples), out(kOpusFrameSamples);
    std::vector<uint8_t> packet(kMaxOpusPacketBytes);
    for (int frame = 0; frame < 20; ++frame) {
        tone.Fill(in);
        int size = encoder->Encode(in, packet);
        decoder->Decode(std::span(packet).first(size), out);
    }
    ASSERT_EQ(decoder->DecodeLost(out), 960);
    EXPECT_GT(Rms(LeftChannel(out)), 0.05 * 32768 * 0.5);  // concealment extrapolates, it does not go silent
    decoder->Reset();
    ASSERT_EQ(decoder->DecodeLost(out), 960);
    EXPECT_LT(Rms(LeftChannel(out)), 50.0);  // a fresh decoder has nothing to extrapolate
}
