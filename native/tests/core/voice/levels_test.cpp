// Level meter, VAD gate (manual and automatic), push-to-talk with release delay, no-audio-input detector.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "voice/media/audio_format.hpp"
#include "voice/media/levels.hpp"
#include "voice_test_signals.hpp"

using namespace svcpp::core::voice;

TEST(LevelDbfs, MeasuresRmsInDecibelsFullScale) {
    std::vector<int16_t> silence(kDeviceFrameSamples, 0);
    EXPECT_EQ(LevelDbfs(silence), kSilenceDbfs);
    EXPECT_EQ(LevelDbfs({}), kSilenceDbfs);
    std::vector<int16_t> square(kDeviceFrameSamples);
    for (std::size_t i = 0; i < square.size(); ++i) square[i] = (i / 20) % 2 ? 32767 : -32767;
    EXPECT_NEAR(LevelDbfs(square), 0.0f, 0.01f);
    std::vector<int16_t> sine(kDeviceFrameSamples);
    ToneGenerator(1000, 1.0).Fill(sine);
    EXPECT_NEAR(LevelDbfs(sine), -3.01f, 0.05f);
    ToneGenerator(1000, 0.01).Fill(sine);
    EXPECT_NEAR(LevelDbfs(sine), -43.0f, 0.1f);
}

TEST(VoiceActivityGate, ThresholdRangeIsChecked) {
    VoiceActivityGate gate;
    EXPECT_TRUE(gate.Threshold().automatic);
    EXPECT_EQ(gate.Threshold().thresholdDb, -60.0f);
    EXPECT_FALSE(gate.SetThreshold(false, 0.5f));
    EXPECT_FALSE(gate.SetThreshold(false, -100.5f));
    EXPECT_FALSE(gate.SetThreshold(true, std::numeric_limits<float>::quiet_NaN()));
    EXPECT_TRUE(gate.Threshold().automatic);
    EXPECT_TRUE(gate.SetThreshold(false, -40));
    EXPECT_FALSE(gate.Threshold().automatic);
    EXPECT_EQ(gate.Threshold().thresholdDb, -40.0f);
}

TEST(VoiceActivityGate, ManualThresholdOpensAndHangsOverBeforeClosing) {
    VoiceActivityGate gate;
    ASSERT_TRUE(gate.SetThreshold(false, -40));
    EXPECT_FALSE(gate.Process(-50));
    EXPECT_TRUE(gate.Process(-39));
    int openFrames = 0;
    while (gate.Process(-80)) ++openFrames;
    EXPECT_EQ(openFrames, VoiceActivityGate::kHangoverMs / 10);
    EXPECT_FALSE(gate.IsOpen());
}

TEST(VoiceActivityGate, AutomaticModeFollowsTheProcessorsVoiceDetection) {
    VoiceActivityGate gate;
    EXPECT_FALSE(gate.Process(-20, false));  // loud but not voice (per the processor)
    EXPECT_TRUE(gate.Process(-60, true));
}

TEST(VoiceActivityGate, AutomaticModeWithoutAProcessorAdaptsToTheNoiseFloor) {
    VoiceActivityGate gate;
    // A steady −45 dB hum: the floor settles on it and it stops counting as voice.
    for (int i = 0; i < 100; ++i) gate.Process(-45);
    EXPECT_NEAR(gate.NoiseFloorDb(), -45.0f, 0.01f);
    EXPECT_FALSE(gate.IsOpen());
    EXPECT_TRUE(gate.Process(-30));  // 15 dB above the hum: speech
    // The hum gets louder by 10 dB: learnt within a few seconds (3 dB/s), then it is no longer voice.
    for (int i = 0; i < 500; ++i) gate.Process(-35);
    EXPECT_NEAR(gate.NoiseFloorDb(), -35.0f, 0.01f);
    EXPECT_FALSE(gate.IsOpen());
    // Very quiet rooms: nothing below −70 dBFS is voice, however low the floor.
    VoiceActivityGate quiet;
    for (int i = 0; i < 50; ++i) quiet.Process(-100);
    EXPECT_FALSE(quiet.Process(-75));
    EXPECT_TRUE(quiet.Process(-65));
}

TEST(PushToTalkGate, OpenWhileActiveAndForTheReleaseDelay) {
    PushToTalkGate ptt;
    EXPECT_FALSE(ptt.Process());
    ptt.SetActive(true);
    EXPECT_TRUE(ptt.Process());
    ptt.SetActive(false);
    EXPECT_FALSE(ptt.Process());  // release delay 0: closes at once

    ptt.SetReleaseDelayMs(30);
    EXPECT_EQ(ptt.ReleaseDelayMs(), 30u);
    ptt.SetActive(true);
    EXPECT_TRUE(ptt.Process());
    ptt.SetActive(false);
    EXPECT_TRUE(ptt.Process());
    EXPECT_TRUE(ptt.Process());
    EXPECT_TRUE(ptt.Process());
    EXPECT_FALSE(ptt.Process());
}

TEST(PushToTalkGate, PressingAgainDuringTheReleaseDelayKeepsItOpen) {
    PushToTalkGate ptt;
    ptt.SetReleaseDelayMs(20);
    ptt.SetActive(true);
    ptt.Process();
    ptt.SetActive(false);
    EXPECT_TRUE(ptt.Process());
    ptt.SetActive(true);
    EXPECT_TRUE(ptt.Process());
    ptt.SetActive(false);
    EXPECT_TRUE(ptt.Process());  // a fresh 20 ms
    EXPECT_TRUE(ptt.Process());
    EXPECT_FALSE(ptt.Process());
}

TEST(NoAudioInputDetector, OffByDefaultAndRangeChecked) {
    NoAudioInputDetector d;
    EXPECT_EQ(d.Threshold(), NoAudioInputDetector::kOff);
    for (int i = 0; i < 500; ++i) ASSERT_FALSE(d.Process(-100));
    EXPECT_FALSE(d.SetThreshold(100.5f));
    EXPECT_FALSE(d.SetThreshold(-101));
    EXPECT_FALSE(d.SetThreshold(std::numeric_limits<float>::infinity()));
    EXPECT_EQ(d.Threshold(), NoAudioInputDetector::kOff);
}

TEST(NoAudioInputDetector, ReportsSilenceAfterTwoSecondsAndInputAtOnceOnlyOnChanges) {
    NoAudioInputDetector d;
    ASSERT_TRUE(d.SetThreshold(-50));
    int frames = 0;
    std::optional<bool> report;
    while (!(report = d.Process(-80))) ++frames;
    EXPECT_EQ(*report, false);
    EXPECT_EQ(frames + 1, NoAudioInputDetector::kSilentMs / 10);
    EXPECT_FALSE(d.Process(-80));     // no repeat
    EXPECT_EQ(d.Process(-40), true);  // input detected at once
    EXPECT_FALSE(d.Process(-40));
    EXPECT_FALSE(d.Process(-80));  // a short pause is not "no input"
}
