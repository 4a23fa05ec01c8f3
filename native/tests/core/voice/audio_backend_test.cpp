// The null and WAV file devices, WAV reading/writing, and the engine's 10 ms clock.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "voice/media/audio_backend.hpp"
#include "voice/media/wav_file.hpp"
#include "voice_test_signals.hpp"

using namespace svcpp::core::voice;

namespace {

std::filesystem::path TempDir() {
    return std::filesystem::temp_directory_path() / ("svcpp-voice-" + std::to_string(::getpid()));
}

std::string TempPath(const std::string &name) {
    std::filesystem::create_directories(TempDir());
    return (TempDir() / name).string();
}

// Removes this process's temporary files once its tests are done.
class TempFiles : public ::testing::Environment {
  public:
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(TempDir(), ignored);
    }
};
const auto *const kTempFiles = ::testing::AddGlobalTestEnvironment(new TempFiles);

}  // namespace

TEST(WavFile, WritesAndReadsBack) {
    WavAudio audio{kSampleRate, 2, {1, -1, 32767, -32768, 0, 5}};
    auto path = TempPath("roundtrip.wav");
    ASSERT_TRUE(WriteWavFile(path, audio));
    EXPECT_EQ(std::filesystem::file_size(path), 44u + 12u);
    auto read = ReadWavFile(path);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->sampleRate, kSampleRate);
    EXPECT_EQ(read->channels, 2);
    EXPECT_EQ(read->samples, audio.samples);
}

TEST(WavFile, SkipsUnknownChunksAndRefusesWhatItCannotRead) {
    auto path = TempPath("list.wav");
    {
        // RIFF, WAVE, a LIST chunk of odd size (padded), fmt, data
        std::ofstream f(path, std::ios::binary);
        auto le32 = [&](uint32_t v) {
            for (int i = 0; i < 4; ++i) f.put(char(v >> (8 * i)));
        };
        auto le16 = [&](uint16_t v) {
            f.put(char(v));
            f.put(char(v >> 8));
        };
        f.write("RIFF", 4);
        le32(4 + 8 + 3 + 1 + 8 + 16 + 8 + 4);
        f.write("WAVE", 4);
        f.write("LIST", 4);
        le32(3);
        f.write("abc", 3);
        f.put(0);
        f.write("fmt ", 4);
        le32(16);
        le16(1);
        le16(1);
        le32(48000);
        le32(96000);
        le16(2);
        le16(16);
        f.write("data", 4);
        le32(4);
        le16(7);
        le16(uint16_t(-7));
    }
    auto read = ReadWavFile(path);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->channels, 1);
    EXPECT_EQ(read->samples, (std::vector<int16_t>{7, -7}));

    std::string error;
    EXPECT_FALSE(ReadWavFile(TempPath("missing.wav"), &error));
    EXPECT_NE(error.find("cannot open"), std::string::npos);
    auto text = TempPath("text.wav");
    std::ofstream(text) << "hello, not a wav file";
    EXPECT_FALSE(ReadWavFile(text, &error));
    EXPECT_NE(error.find("RIFF"), std::string::npos);
}

TEST(NullAudioBackend, SilenceInDiscardOutDefaultDevicesOnly) {
    auto backend = CreateNullAudioBackend();
    EXPECT_EQ(backend->Name(), "null");
    EXPECT_TRUE(backend->IsClockPaced());
    ASSERT_EQ(backend->InputDevices().size(), 1u);
    EXPECT_TRUE(backend->InputDevices()[0].isDefault);
    EXPECT_EQ(backend->OutputDevices()[0].id, kDefaultAudioDeviceId);
    EXPECT_EQ(backend->OpenCapture("no-such-device"), nullptr);
    EXPECT_EQ(backend->OpenPlayback("no-such-device"), nullptr);
    auto capture = backend->OpenCapture("");
    auto playback = backend->OpenPlayback(kDefaultAudioDeviceId);
    ASSERT_TRUE(capture && playback);
    std::vector<int16_t> frame(kDeviceFrameSamples, 77);
    EXPECT_TRUE(capture->Read(frame));
    for (int16_t s : frame) ASSERT_EQ(s, 0);
    EXPECT_TRUE(playback->Write(frame));
}

TEST(WavFileAudioBackend, MicrophoneFromAFileSpeakerIntoAFile) {
    // A mono 48 kHz tone of 25 ms: two full device frames and a half one.
    WavAudio tone{kSampleRate, 1, std::vector<int16_t>(1200)};
    for (std::size_t i = 0; i < tone.samples.size(); ++i) tone.samples[i] = int16_t(i + 1);
    auto in = TempPath("mic.wav"), out = TempPath("speaker.wav");
    ASSERT_TRUE(WriteWavFile(in, tone));
    std::string error;
    auto backend = CreateWavFileAudioBackend({in, false, out}, &error);
    ASSERT_TRUE(backend) << error;
    EXPECT_EQ(backend->Name(), "wav");
    EXPECT_EQ(backend->InputDevices()[0].name, in);
    auto capture = backend->OpenCapture(kDefaultAudioDeviceId);
    auto playback = backend->OpenPlayback("");
    ASSERT_TRUE(capture && playback);
    std::vector<int16_t> frame(kDeviceFrameSamples);
    std::vector<int16_t> captured;
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(capture->Read(frame));
        captured.insert(captured.end(), frame.begin(), frame.end());
        ASSERT_TRUE(playback->Write(frame));
    }
    EXPECT_EQ(captured[0], 1);  // mono duplicated to both channels
    EXPECT_EQ(captured[1], 1);
    EXPECT_EQ(captured[2 * 1199], 1200);
    EXPECT_EQ(captured[2 * 1200], 0);  // after the end: silence
    playback.reset();                  // closes the output file
    auto written = ReadWavFile(out);
    ASSERT_TRUE(written);
    EXPECT_EQ(written->channels, 2);
    EXPECT_EQ(written->samples, captured);
}

TEST(WavFileAudioBackend, LoopsTheInputWhenAsked) {
    WavAudio audio{kSampleRate, 2, {1, 2, 3, 4}};
    auto in = TempPath("loop.wav");
    ASSERT_TRUE(WriteWavFile(in, audio));
    auto backend = CreateWavFileAudioBackend({in, true, ""});
    auto capture = backend->OpenCapture("");
    std::vector<int16_t> frame(kDeviceFrameSamples);
    capture->Read(frame);
    EXPECT_EQ((std::vector<int16_t>(frame.begin(), frame.begin() + 6)), (std::vector<int16_t>{1, 2, 3, 4, 1, 2}));
    EXPECT_TRUE(backend->OpenPlayback("")->Write(frame));  // no output file: discarded
}

TEST(WavFileAudioBackend, RefusesUnusableFiles) {
    std::string error;
    EXPECT_EQ(CreateWavFileAudioBackend({TempPath("absent.wav"), false, ""}, &error), nullptr);
    EXPECT_FALSE(error.empty());
    auto wrongRate = TempPath("44k.wav");
    ASSERT_TRUE(WriteWavFile(wrongRate, {44100, 2, {0, 0}}));
    EXPECT_EQ(CreateWavFileAudioBackend({wrongRate, false, ""}, &error), nullptr);
    EXPECT_NE(error.find("48000"), std::string::npos);
    EXPECT_EQ(CreateWavFileAudioBackend({"", false, "/nonexistent-dir/out.wav"}, &error), nullptr);
    EXPECT_NE(error.find("cannot create"), std::string::npos);
}

// Checked by counting, not by timing (sleep_for never returns early; a loaded machine only makes a caller later).
// A caller a few periods late is given the missed ticks at once, none skipped, so a clock-paced device keeps the
// wall clock's time ...
TEST(AudioClock, GivesACallerThatFellALittleBehindTheMissedTicksAtOnce) {
    AudioClock clock(std::chrono::milliseconds(5), /*maxCatchUpTicks=*/100000);
    clock.Start();
    clock.WaitNextTick();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    for (int i = 0; i < 6; ++i) EXPECT_EQ(clock.WaitNextTick(), 0) << "tick " << i;
}

// ... and one further behind than the catch-up limit (it cannot keep up) skips to now instead of bursting on.
TEST(AudioClock, SkipsTicksBeyondTheCatchUpLimit) {
    AudioClock clock(std::chrono::milliseconds(5), /*maxCatchUpTicks=*/2);
    clock.Start();
    clock.WaitNextTick();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_GE(clock.WaitNextTick(), 4);
}
