// Mixer, per-participant settings, output and input volume: ranges, unity, scaling, muting, saturation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "voice/media/mixer.hpp"

using namespace svcpp::core::voice;

namespace {
std::vector<int16_t> Constant(int16_t value, std::size_t n = kOpusFrameSamples) {
    return std::vector<int16_t>(n, value);
}
}  // namespace

TEST(Mixer, SumsStreamsAtUnity) {
    Mixer mixer;
    ParticipantMixSettings a, b;
    mixer.Begin();
    EXPECT_TRUE(mixer.Add(Constant(1000), a));
    EXPECT_TRUE(mixer.Add(Constant(-300), b));
    std::vector<int16_t> out(kOpusFrameSamples);
    mixer.Finish(out);
    EXPECT_EQ(mixer.Sources(), 2);
    for (int16_t s : out) ASSERT_EQ(s, 700);
}

TEST(Mixer, ParticipantVolumeScalesOnlyThatParticipant) {
    Mixer mixer;
    ParticipantMixSettings loud, quiet;
    ASSERT_TRUE(loud.SetVolume(200));
    ASSERT_TRUE(quiet.SetVolume(50));
    mixer.Begin();
    mixer.Add(Constant(1000), loud);
    mixer.Add(Constant(1000), quiet);
    std::vector<int16_t> out(kOpusFrameSamples);
    mixer.Finish(out);
    EXPECT_EQ(out[0], 2500);
}

TEST(Mixer, LocalMuteAndOutShouldMuteKeepAStreamOutOfTheMix) {
    Mixer mixer;
    ParticipantMixSettings muted, heardByApp, normal;
    muted.SetLocalMute(true);
    EXPECT_TRUE(muted.LocalMute());
    mixer.Begin();
    EXPECT_FALSE(mixer.Add(Constant(5000), muted));
    EXPECT_FALSE(mixer.Add(Constant(7000), heardByApp, /*outShouldMute=*/true));
    EXPECT_TRUE(mixer.Add(Constant(10), normal));
    std::vector<int16_t> out(kOpusFrameSamples);
    mixer.Finish(out);
    EXPECT_EQ(mixer.Sources(), 1);
    EXPECT_EQ(out[5], 10);
}

TEST(Mixer, SaturatesInsteadOfWrapping) {
    Mixer mixer;
    ParticipantMixSettings p;
    mixer.Begin();
    for (int i = 0; i < 25; ++i) mixer.Add(Constant(30000), p);
    mixer.Add(Constant(-32768, 2), p);
    std::vector<int16_t> out(kOpusFrameSamples);
    mixer.Finish(out);
    EXPECT_EQ(out[100], 32767);
    mixer.Begin();
    for (int i = 0; i < 25; ++i) mixer.Add(Constant(-30000), p);
    mixer.Finish(out);
    EXPECT_EQ(out[100], -32768);
}

TEST(Mixer, OutputVolumeAppliesToTheWholeMixAndValidates) {
    Mixer mixer;
    EXPECT_FALSE(mixer.SetOutputVolume(-1));
    EXPECT_FALSE(mixer.SetOutputVolume(200.5f));
    EXPECT_FALSE(mixer.SetOutputVolume(std::numeric_limits<float>::quiet_NaN()));
    EXPECT_FALSE(mixer.SetOutputVolume(std::numeric_limits<float>::infinity()));
    EXPECT_EQ(mixer.OutputVolume(), 100.0f);
    ASSERT_TRUE(mixer.SetOutputVolume(0));
    ParticipantMixSettings p;
    mixer.Begin();
    mixer.Add(Constant(1000), p);
    std::vector<int16_t> out(kOpusFrameSamples, 1);
    mixer.Finish(out);
    EXPECT_EQ(out[0], 0);
    ASSERT_TRUE(mixer.SetOutputVolume(200));
    mixer.Begin();
    mixer.Add(Constant(1000), p);
    mixer.Finish(out);
    EXPECT_EQ(out[0], 2000);
}

TEST(Mixer, AnEmptyMixIsSilenceAndShortInputsAddWhatTheyHave) {
    Mixer mixer;
    mixer.Begin(kDeviceFrameSamples);
    std::vector<int16_t> out(kDeviceFrameSamples, 123);
    mixer.Finish(out);
    for (int16_t s : out) ASSERT_EQ(s, 0);
    mixer.Begin(kDeviceFrameSamples);
    mixer.Add(Constant(50, 10));
    mixer.Finish(out);
    EXPECT_EQ(out[9], 50);
    EXPECT_EQ(out[10], 0);
}

TEST(Mixer, ParticipantVolumeRefusesOutOfRangeAndKeepsTheOldValue) {
    ParticipantMixSettings p;
    EXPECT_FALSE(p.SetVolume(-0.1f));
    EXPECT_FALSE(p.SetVolume(201));
    EXPECT_FALSE(p.SetVolume(std::numeric_limits<float>::quiet_NaN()));
    EXPECT_EQ(p.Volume(), 100.0f);
    EXPECT_TRUE(p.SetVolume(0));
    EXPECT_EQ(p.Volume(), 0.0f);
}

TEST(InputVolume, PerceptualCurveUnityAtHundredAndRangeChecked) {
    InputVolume v;
    EXPECT_FALSE(v.Set(100.5f));
    EXPECT_FALSE(v.Set(-1));
    EXPECT_FALSE(v.Set(std::numeric_limits<float>::quiet_NaN()));
    EXPECT_EQ(v.Get(), 100.0f);
    auto frame = Constant(10000);
    v.Apply(frame);
    EXPECT_EQ(frame[0], 10000);
    ASSERT_TRUE(v.Set(50));
    v.Apply(frame);
    EXPECT_EQ(frame[0], 2500);  // (50/100)² = 0.25, about −12 dB
    ASSERT_TRUE(v.Set(0));
    v.Apply(frame);
    EXPECT_EQ(frame[0], 0);
}

TEST(InputVolume, GainSaturates) {
    auto frame = Constant(30000, 4);
    ApplyGain(frame, 2.0f);
    EXPECT_EQ(frame[0], 32767);
    frame = Constant(-30000, 4);
    ApplyGain(frame, 2.0f);
    EXPECT_EQ(frame[0], -32768);
}
