// The PulseAudio backend against a real PulseAudio daemon with null devices (no sound hardware needed). The daemon
// must start: when it cannot, these tests fail (scripts/install-deps.sh installs pulseaudio for CI).
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "pulse_daemon.hpp"
#include "voice/media/audio_backend.hpp"
#include "voice_test_signals.hpp"

using namespace svcpp::core::voice;

namespace {

bool Has(const std::vector<AudioDeviceInfo> &devices, const std::string &id) {
    return std::ranges::any_of(devices, [&](const AudioDeviceInfo &d) { return d.id == id; });
}

class PulseBackend : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string error = daemon_.Start();
        ASSERT_EQ(error, "") << "a PulseAudio daemon is required for these tests";
        backend_ = CreatePulseAudioBackend(&error);
        ASSERT_TRUE(backend_) << error << "\n" << daemon_.Log();
    }
    void TearDown() override { backend_.reset(); }  // before the daemon goes

    PulseDaemon daemon_;
    std::unique_ptr<AudioBackend> backend_;
};

}  // namespace

TEST_F(PulseBackend, EnumeratesTheNullDevicesWithTheirDefaults) {
    EXPECT_EQ(backend_->Name(), "pulseaudio");
    EXPECT_FALSE(backend_->IsClockPaced());
    auto outputs = backend_->OutputDevices();
    auto inputs = backend_->InputDevices();
    ASSERT_TRUE(Has(outputs, "vsink"));
    EXPECT_TRUE(Has(inputs, "vsrc"));
    EXPECT_TRUE(Has(inputs, "vsink.monitor"));
    EXPECT_EQ(std::ranges::count_if(outputs, [](auto &d) { return d.isDefault; }), 1);
    EXPECT_EQ(std::ranges::count_if(inputs, [](auto &d) { return d.isDefault; }), 1);
    for (auto &d : outputs) EXPECT_FALSE(d.name.empty());
}

TEST_F(PulseBackend, RefusesUnknownDevices) {
    EXPECT_EQ(backend_->OpenCapture("no-such-source"), nullptr);
    EXPECT_EQ(backend_->OpenPlayback("no-such-sink"), nullptr);
}

// Play a 1 kHz tone into vsink while capturing vsink.monitor: the tone comes back, in real time, through the server.
TEST_F(PulseBackend, PlaysAndCapturesThroughTheServer) {
    auto playback = backend_->OpenPlayback("vsink");
    auto capture = backend_->OpenCapture("vsink.monitor");
    ASSERT_TRUE(playback && capture);
    std::thread player([&] {
        ToneGenerator tone(1000, 0.5);
        std::vector<int16_t> frame(kDeviceFrameSamples);
        for (int i = 0; i < 150; ++i) {
            tone.Fill(frame);
            if (!playback->Write(frame)) return;
        }
    });
    std::vector<int16_t> frame(kDeviceFrameSamples);
    std::vector<double> frequencies, levels;  // per captured 10 ms frame that carries the tone
    for (int i = 0; i < 200; ++i) {
        ASSERT_TRUE(capture->Read(frame));
        auto left = LeftChannel(frame);
        if (Rms(left) > 1000) {
            frequencies.push_back(EstimateFrequency(left, kSampleRate));
            levels.push_back(Rms(left));
        }
    }
    player.join();
    ASSERT_GE(frequencies.size(), 50u) << "the tone did not come back";
    // Medians: a loaded machine may let the player underrun, and a frame straddling such a gap is not a clean tone.
    std::ranges::nth_element(frequencies, frequencies.begin() + long(frequencies.size() / 2));
    std::ranges::nth_element(levels, levels.begin() + long(levels.size() / 2));
    EXPECT_NEAR(frequencies[frequencies.size() / 2], 1000.0, 10.0);
    EXPECT_NEAR(levels[levels.size() / 2], 0.5 * 32767 / std::sqrt(2.0), 0.1 * 32767);
}

TEST_F(PulseBackend, TheNullSourceCapturesSilenceAtTheDeviceRate) {
    auto capture = backend_->OpenCapture("vsrc");
    ASSERT_TRUE(capture);
    std::vector<int16_t> frame(kDeviceFrameSamples);
    for (int i = 0; i < 10; ++i) {
        ASSERT_TRUE(capture->Read(frame));
        EXPECT_EQ(Rms(frame), 0.0);
    }
}

TEST_F(PulseBackend, ReportsADeviceThatAppears) {
    std::mutex mutex;
    std::condition_variable cv;
    bool seen = false;
    backend_->SetDeviceChangeCallback([&](const auto &, const std::vector<AudioDeviceInfo> &outputs) {
        std::lock_guard lock(mutex);
        if (Has(outputs, "extra")) seen = true;
        cv.notify_all();
    });
    ASSERT_EQ(std::system("pactl load-module module-null-sink sink_name=extra >/dev/null"), 0);
    std::unique_lock lock(mutex);
    // A bound so a missing event fails instead of hanging; the event itself comes within milliseconds.
    EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return seen; }));
    lock.unlock();
    backend_->SetDeviceChangeCallback({});
}

// No server at the configured address: no backend, and an error that says why (the engine then falls back to the
// null device).
TEST(PulseBackendWithoutServer, CreateFailsWithAReason) {
    ::setenv("PULSE_SERVER", "unix:/nonexistent/svcpp-no-pulse-here", 1);
    std::string error;
    auto backend = CreatePulseAudioBackend(&error);
    ::unsetenv("PULSE_SERVER");
    EXPECT_EQ(backend, nullptr);
    EXPECT_NE(error.find("PulseAudio"), std::string::npos) << error;
}
