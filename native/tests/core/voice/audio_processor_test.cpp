// AudioProcessor (WebRTC audio processing 0.3): each of AEC, NS and AGC measurably does its job when on and leaves the
// signal alone when off; voice detection tells speech-like sound from silence; bad frame sizes are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>  // std::numbers::pi: M_PI is POSIX's, not in strict C++ (MinGW)
#include <random>
#include <vector>

#include "voice/media/audio_format.hpp"
#include "voice/media/audio_processor.hpp"
#include "voice/media/levels.hpp"
#include "voice_test_signals.hpp"

using namespace svcpp::core::voice;

namespace {

AudioProcessingSettings Only(bool echo, bool noise, bool gain) {
    AudioProcessingSettings s;
    s.echoCancellation = echo;
    s.noiseSuppression = noise;
    s.automaticGainControl = gain;
    return s;
}

// A voiced, speech-like signal: 140 Hz fundamental with decaying harmonics, syllable-rate amplitude modulation.
class SpeechLike {
  public:
    explicit SpeechLike(double amplitude) : amplitude_(amplitude) {}
    void Fill(std::span<int16_t> stereo) {
        for (std::size_t i = 0; i + 1 < stereo.size(); i += 2, ++n_) {
            double t = double(n_) / kSampleRate;
            double v = 0;
            for (int h = 1; h <= 12; ++h) v += std::sin(2 * std::numbers::pi * 140.0 * h * t) / h;
            v *= 0.5 * (1.0 + std::sin(2 * std::numbers::pi * 4.0 * t));  // 4 syllables per second
            stereo[i] = stereo[i + 1] =
                int16_t(std::lround(std::clamp(amplitude_ * 32767.0 * v / 2.0, -32767.0, 32767.0)));
        }
    }

  private:
    double amplitude_;
    uint64_t n_ = 0;
};

}  // namespace

TEST(AudioProcessor, RefusesFramesThatAreNotTenMilliseconds) {
    auto apm = AudioProcessor::Create();
    ASSERT_TRUE(apm);
    std::vector<int16_t> wrong(kDeviceFrameSamples - 2);
    EXPECT_FALSE(apm->ProcessCapture(wrong));
    EXPECT_FALSE(apm->AnalyzeFarEnd(wrong));
    EXPECT_FALSE(apm->VoiceDetected());
}

TEST(AudioProcessor, SwitchesAreReadBack) {
    auto apm = AudioProcessor::Create(Only(false, true, false));
    auto s = apm->Settings();
    EXPECT_FALSE(s.echoCancellation);
    EXPECT_TRUE(s.noiseSuppression);
    EXPECT_FALSE(s.automaticGainControl);
    apm->SetEchoCancellation(true);
    apm->SetHighNoiseSuppression(true);
    s = apm->Settings();
    EXPECT_TRUE(s.echoCancellation);
    EXPECT_TRUE(s.highNoiseSuppression);
}

// The microphone hears the loudspeaker (the far end, delayed 30 ms and attenuated) and nothing else. With AEC the
// captured level falls far below the echo's; without, it stays.
TEST(AudioProcessor, EchoCancellationRemovesTheFarEndFromTheCapture) {
    auto run = [](bool aec) {
        auto apm = AudioProcessor::Create(Only(aec, false, false));
        apm->SetStreamDelayMs(30);
        SpeechLike far(0.5);
        std::vector<std::vector<int16_t>> played;
        std::vector<int16_t> frame(kDeviceFrameSamples);
        float lastLevels = 0;
        const int frames = 600, delayFrames = 3;
        for (int i = 0; i < frames; ++i) {
            std::vector<int16_t> out(kDeviceFrameSamples);
            far.Fill(out);
            EXPECT_TRUE(apm->AnalyzeFarEnd(out));
            played.push_back(out);
            std::fill(frame.begin(), frame.end(), int16_t(0));
            if (i >= delayFrames)
                for (std::size_t k = 0; k < frame.size(); ++k) frame[k] = int16_t(played[i - delayFrames][k] / 2);
            EXPECT_TRUE(apm->ProcessCapture(frame));
            if (i >= frames - 100) lastLevels += LevelDbfs(frame) / 100;  // the last second, after convergence
        }
        return lastLevels;
    };
    float without = run(false), with = run(true);
    EXPECT_GT(without, -40.0f);
    EXPECT_LT(with, without - 15.0f) << "AEC on: " << with << " dBFS, off: " << without << " dBFS";
}

TEST(AudioProcessor, NoiseSuppressionLowersSteadyNoise) {
    auto run = [](bool ns) {
        auto apm = AudioProcessor::Create(Only(false, ns, false));
        std::mt19937 rng(7);
        std::normal_distribution<double> noise(0, 1500);
        std::vector<int16_t> frame(kDeviceFrameSamples);
        float level = 0;
        for (int i = 0; i < 300; ++i) {
            for (std::size_t k = 0; k < frame.size(); k += 2) frame[k] = frame[k + 1] = int16_t(noise(rng));
            apm->ProcessCapture(frame);
            if (i >= 200) level += LevelDbfs(frame) / 100;
        }
        return level;
    };
    float without = run(false), with = run(true);
    EXPECT_LT(with, without - 6.0f) << "NS on: " << with << " dBFS, off: " << without << " dBFS";
}

TEST(AudioProcessor, GainControlRaisesAQuietTalker) {
    auto run = [](bool agc) {
        auto apm = AudioProcessor::Create(Only(false, false, agc));
        SpeechLike speech(0.02);  // about −40 dBFS
        std::vector<int16_t> frame(kDeviceFrameSamples);
        float level = 0;
        for (int i = 0; i < 500; ++i) {
            speech.Fill(frame);
            apm->ProcessCapture(frame);
            if (i >= 400) level += LevelDbfs(frame) / 100;
        }
        return level;
    };
    float without = run(false), with = run(true);
    EXPECT_GT(with, without + 3.0f) << "AGC on: " << with << " dBFS, off: " << without << " dBFS";
}

TEST(AudioProcessor, VoiceDetectionTellsSpeechFromSilence) {
    auto apm = AudioProcessor::Create(Only(false, false, false));
    std::vector<int16_t> frame(kDeviceFrameSamples);
    for (int i = 0; i < 50; ++i) {
        std::fill(frame.begin(), frame.end(), int16_t(0));
        apm->ProcessCapture(frame);
    }
    EXPECT_EQ(apm->VoiceDetected(), false);
    SpeechLike speech(0.3);
    int voiced = 0;
    for (int i = 0; i < 100; ++i) {
        speech.Fill(frame);
        apm->ProcessCapture(frame);
        voiced += apm->VoiceDetected().value_or(false);
    }
    EXPECT_GT(voiced, 50);
}

TEST(AudioProcessor, AllOffLeavesTheSignalNearlyAlone) {
    auto apm = AudioProcessor::Create(Only(false, false, false));
    ToneGenerator tone(1000, 0.3);
    std::vector<int16_t> frame(kDeviceFrameSamples);
    float in = 0, out = 0;
    for (int i = 0; i < 100; ++i) {
        tone.Fill(frame);
        float before = LevelDbfs(frame);
        apm->ProcessCapture(frame);
        if (i >= 50) {
            in += before / 50;
            out += LevelDbfs(frame) / 50;
        }
    }
    EXPECT_NEAR(out, in, 1.0f);  // only the high-pass filter runs, far below 1 kHz
}
