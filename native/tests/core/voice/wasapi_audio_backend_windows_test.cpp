// The WASAPI backend against real endpoints, under Wine, whose winepulse driver puts a PulseAudio server behind WASAPI.
// with-pulse-daemon.sh starts a private daemon per test (null sinks "svcpp-vsink", the default, and "svcpp-spare"; a
// null source "svcpp-vsrc"; vsink's monitor the default source) and removes a sink when a test asks (Request below).
// What Wine 8.0 puts in front of the server: every sink and source as an endpoint (monitors too) plus one endpoint
// named "PulseAudio" per direction that follows the server's default and is WASAPI's default unless the user picks
// another (winecfg: HKCU\Software\Wine\Drivers\winepulse.drv); the endpoint list is read once per process, so a
// sink loaded later is never listed and no OnDeviceAdded/OnDeviceRemoved comes (docs/platforms.md).
// MinGW's <cmath> defines M_PI (voice_test_signals.hpp) only when asked, in strict C++ mode.
#define _USE_MATH_DEFINES
#include <gtest/gtest.h>
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "voice/media/audio_backend.hpp"
#include "voice/media/system_audio_backend.hpp"
#include "voice/media/wasapi_stream_windows.hpp"
#include "voice_test_signals.hpp"

using namespace svcpp::core::voice;

namespace {

using Devices = std::vector<AudioDeviceInfo>;

std::optional<AudioDeviceInfo> Named(const Devices &devices, const std::string &name) {
    for (const auto &d : devices)
        if (d.name.find(name) != std::string::npos) return d;
    return std::nullopt;
}

/** Asks with-pulse-daemon.sh for a server change and waits until it is done. Empty on success, else why. */
std::string Request(const std::string &what) {
    const char *dir = std::getenv("SVCPP_PULSE_REQUESTS");
    if (!dir) return "SVCPP_PULSE_REQUESTS is not set: run this suite through with-pulse-daemon.sh (ctest does)";
    const std::string path = std::string(dir) + "\\" + what;
    if (FILE *f = std::fopen(path.c_str(), "w")) {
        std::fclose(f);
    } else {
        return "cannot write " + path;
    }
    // A bound so a script that stopped serving fails the test instead of hanging it; pactl answers in milliseconds.
    for (int i = 0; i < 200; ++i) {
        if (GetFileAttributesA((path + ".done").c_str()) != INVALID_FILE_ATTRIBUTES) return "";
        Sleep(50);
    }
    return "with-pulse-daemon.sh did not serve " + what;
}

/** The device lists of each device-change callback, for a test to wait on. */
class ChangeLog {
  public:
    AudioBackend::DeviceChangeCallback Callback() {
        return [this](const Devices &inputs, const Devices &outputs) {
            std::lock_guard lock(mutex_);
            last_ = outputs;
            lastInputs_ = inputs;
            ++calls_;
            cv_.notify_all();
        };
    }
    /** Waits (bounded: a missing event fails instead of hanging) until the outputs satisfy `pred`. */
    template <typename Pred>
    bool WaitForOutputs(Pred pred, std::chrono::seconds bound = std::chrono::seconds(10)) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, bound, [&] { return calls_ > 0 && pred(last_); });
    }

  private:
    std::mutex mutex_;
    std::condition_variable cv_;
    Devices last_, lastInputs_;
    int calls_ = 0;
};

class WasapiBackend : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string error;
        backend_ = CreateWasapiAudioBackend(&error);
        ASSERT_TRUE(backend_) << error;
    }
    std::unique_ptr<AudioBackend> backend_;
};

}  // namespace

TEST(WasapiSystemBackend, IsWhatDefaultOpensOnWindows) {
    std::string error;
    auto backend = CreateSystemAudioBackend(&error);
    ASSERT_TRUE(backend) << error;
    EXPECT_EQ(backend->Name(), "wasapi");
    EXPECT_FALSE(backend->IsClockPaced());
}

TEST_F(WasapiBackend, EnumeratesTheEndpointsWithTheirNamesAndDefaults) {
    const Devices outputs = backend_->OutputDevices();
    const Devices inputs = backend_->InputDevices();
    EXPECT_TRUE(Named(outputs, "svcpp-vsink")) << "the daemon's null sink is not a render endpoint";
    EXPECT_TRUE(Named(outputs, "svcpp-spare"));
    EXPECT_TRUE(Named(inputs, "svcpp-vsrc")) << "the daemon's null source is not a capture endpoint";
    EXPECT_TRUE(Named(inputs, "Monitor of svcpp-vsink"));
    EXPECT_EQ(std::ranges::count_if(outputs, [](auto &d) { return d.isDefault; }), 1);
    EXPECT_EQ(std::ranges::count_if(inputs, [](auto &d) { return d.isDefault; }), 1);
    for (const auto &d : outputs) {
        EXPECT_FALSE(d.id.empty());
        EXPECT_FALSE(d.name.empty());
        EXPECT_NE(d.id, std::string(kDefaultAudioDeviceId));
    }
}

TEST_F(WasapiBackend, RefusesUnknownDevicesAndDevicesOfTheOtherDirection) {
    EXPECT_EQ(backend_->OpenCapture("{0.0.1.00000000}.{00000000-0000-0000-0000-000000000000}"), nullptr);
    EXPECT_EQ(backend_->OpenPlayback("no-such-endpoint"), nullptr);
    auto sink = Named(backend_->OutputDevices(), "svcpp-vsink");
    ASSERT_TRUE(sink);
    EXPECT_EQ(backend_->OpenCapture(sink->id), nullptr) << "a render endpoint opened as a microphone";
}

TEST_F(WasapiBackend, OpensAListedCaptureDeviceByIdAndReadsItsSilence) {
    auto source = Named(backend_->InputDevices(), "svcpp-vsrc");
    ASSERT_TRUE(source);
    auto capture = backend_->OpenCapture(source->id);
    ASSERT_TRUE(capture);
    std::vector<int16_t> frame(kDeviceFrameSamples, 1);
    for (int i = 0; i < 10; ++i) {
        ASSERT_TRUE(capture->Read(frame));
        EXPECT_EQ(Rms(frame), 0.0);
    }
}

// The default render endpoint plays a 1 kHz tone into the null sink; the default capture endpoint (its monitor) hears
// it, through Windows' shared-mode engine as Wine emulates it and the sound server. Prints the round trip.
TEST_F(WasapiBackend, TheDefaultCaptureHearsWhatTheDefaultRenderPlays) {
    auto playback = backend_->OpenPlayback(kDefaultAudioDeviceId);
    auto capture = backend_->OpenCapture(kDefaultAudioDeviceId);
    ASSERT_TRUE(playback && capture);
    // The capture runs before the tone starts: its first Read starts the stream and returns once the device delivers,
    // which on a loaded machine took Wine over a second, while a player started at once had played most of the tone.
    std::vector<int16_t> frame(kDeviceFrameSamples);
    ASSERT_TRUE(capture->Read(frame));
    const auto start = std::chrono::steady_clock::now();
    std::atomic<bool> played{false};
    std::thread player([&] {
        ToneGenerator tone(1000, 0.5);
        std::vector<int16_t> toneFrame(kDeviceFrameSamples);
        for (int i = 0; i < 150; ++i) {
            tone.Fill(toneFrame);
            if (!playback->Write(toneFrame)) break;
        }
        played = true;
    });
    // Listens until the whole tone has come back: the player is done and, once the tone was heard, a half second of
    // quiet follows, rather than for a fixed number of frames that a slow round trip could outlast. The bound (30 s
    // of device-paced reads) only keeps a tone that never comes from hanging the test.
    std::vector<double> frequencies, levels;
    std::optional<std::chrono::steady_clock::duration> firstHeard;
    int quietSinceHeard = 0;
    for (int i = 0; i < 3000 && !(played && firstHeard && quietSinceHeard >= 50); ++i) {
        ASSERT_TRUE(capture->Read(frame));
        auto left = LeftChannel(frame);
        if (Rms(left) > 1000) {
            if (!firstHeard) firstHeard = std::chrono::steady_clock::now() - start;
            frequencies.push_back(EstimateFrequency(left, kSampleRate));
            levels.push_back(Rms(left));
            quietSinceHeard = 0;
        } else if (firstHeard) {
            ++quietSinceHeard;
        }
    }
    player.join();
    ASSERT_GE(frequencies.size(), 50u) << "the tone did not come back";
    std::ranges::nth_element(frequencies, frequencies.begin() + long(frequencies.size() / 2));
    std::ranges::nth_element(levels, levels.begin() + long(levels.size() / 2));
    EXPECT_NEAR(frequencies[frequencies.size() / 2], 1000.0, 10.0);
    EXPECT_NEAR(levels[levels.size() / 2], 0.5 * 32767 / std::sqrt(2.0), 0.1 * 32767);
    // Information for docs/platforms.md, not a threshold: the first write to the first frame heard.
    std::printf(
        "wasapi round trip (first write -> first frame heard on the sink's monitor): %lld ms; %zu of 150 frames "
        "heard\n",
        static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(*firstHeard).count()),
        frequencies.size());
    auto print = [](const char *what, const svcpp::core::voice::wasapi::StreamTiming &t) {
        std::printf("wasapi %s: buffer %u frames (%.1f ms), device period %.1f ms, stream latency %.1f ms\n", what,
                    t.bufferFrames, t.bufferFrames * 1000.0 / kSampleRate, t.devicePeriod / 1e4, t.streamLatency / 1e4);
    };
    if (auto *p = dynamic_cast<svcpp::core::voice::wasapi::WasapiPlayback *>(playback.get()))
        print("render", p->Timing());
    if (auto *c = dynamic_cast<svcpp::core::voice::wasapi::WasapiCapture *>(capture.get()))
        print("capture", c->Timing());
}

/**
 * Wine's stand-in for the user choosing a default device in Windows' sound settings: the winepulse driver's registry
 * value, which Wine's device enumerator watches and turns into OnDefaultDeviceChanged. Removed again on destruction:
 * the prefix is shared by every test run on this machine.
 */
class WineDefaultOutput {
  public:
    WineDefaultOutput() {
        RegCreateKeyExW(HKEY_CURRENT_USER, L"Software\\Wine\\Drivers\\winepulse.drv", 0, nullptr, 0, KEY_ALL_ACCESS,
                        nullptr, &key_, nullptr);
    }
    ~WineDefaultOutput() {
        if (key_) {
            RegDeleteValueW(key_, L"DefaultOutput");
            RegCloseKey(key_);
        }
    }
    bool Set(const std::string &deviceId) {
        std::wstring wide(deviceId.begin(), deviceId.end());  // endpoint ids are ASCII
        return key_ && RegSetValueExW(key_, L"DefaultOutput", 0, REG_SZ, reinterpret_cast<const BYTE *>(wide.c_str()),
                                      static_cast<DWORD>((wide.size() + 1) * sizeof(wchar_t))) == ERROR_SUCCESS;
    }
    bool Clear() { return key_ && RegDeleteValueW(key_, L"DefaultOutput") == ERROR_SUCCESS; }

  private:
    HKEY key_ = nullptr;
};

TEST_F(WasapiBackend, ReportsANewDefaultOutputThroughTheDeviceChangeCallback) {
    auto sink = Named(backend_->OutputDevices(), "svcpp-vsink");
    ASSERT_TRUE(sink);
    ASSERT_FALSE(sink->isDefault) << "Wine's own \"PulseAudio\" endpoint is the default before the user picks one";
    ChangeLog log;
    backend_->SetDeviceChangeCallback(log.Callback());
    WineDefaultOutput choice;
    auto vsinkIsDefault = [&](const Devices &outputs) {
        auto now = Named(outputs, "svcpp-vsink");
        return now && now->isDefault;
    };
    // Wine arms its registry watch on a thread that RegisterEndpointNotificationCallback starts and does not wait for,
    // and compares each value it reads with the last one it read: a choice made before the watch is armed goes unseen
    // and becomes its baseline. So the choice is withdrawn and made again, each step given time to be read, a bounded
    // number of times, until the callback reports it. A watch already armed needs one round.
    bool reported = false;
    for (int round = 0; round < 5 && !reported; ++round) {
        ASSERT_TRUE(choice.Set(sink->id));
        reported = log.WaitForOutputs(vsinkIsDefault, std::chrono::seconds(2));
        if (!reported) {
            choice.Clear();
            log.WaitForOutputs([&](const Devices &outputs) { return !vsinkIsDefault(outputs); },
                               std::chrono::seconds(2));
        }
    }
    EXPECT_TRUE(reported) << "no device-change callback with the chosen default";
    EXPECT_TRUE(vsinkIsDefault(backend_->OutputDevices()));
    ASSERT_TRUE(choice.Clear());
    EXPECT_TRUE(log.WaitForOutputs([&](const Devices &outputs) { return !vsinkIsDefault(outputs); }))
        << "no device-change callback when the choice was withdrawn";
    backend_->SetDeviceChangeCallback({});
}

// A stream on a device that goes away (here: its sink unloaded, so the server kills the stream, as a device unplugged
// does; Wine answers AUDCLNT_E_DEVICE_INVALIDATED) carries on on the new default, which is where the tone is then
// heard.
TEST_F(WasapiBackend, APlaybackWhoseDeviceGoesCarriesOnOnTheDefault) {
    auto sink = Named(backend_->OutputDevices(), "svcpp-vsink");
    auto spareMonitor = Named(backend_->InputDevices(), "Monitor of svcpp-spare");
    ASSERT_TRUE(sink && spareMonitor);
    auto playback = backend_->OpenPlayback(sink->id);
    ASSERT_TRUE(playback);
    ToneGenerator tone(1000, 0.5);
    std::vector<int16_t> frame(kDeviceFrameSamples);
    for (int i = 0; i < 10; ++i) {
        tone.Fill(frame);
        ASSERT_TRUE(playback->Write(frame));
    }
    ASSERT_EQ(Request("unload-sink-vsink"), "");
    auto capture = backend_->OpenCapture(spareMonitor->id);
    ASSERT_TRUE(capture);
    std::atomic<bool> playing = true;
    int failedWrites = 0;
    std::thread player([&] {
        std::vector<int16_t> out(kDeviceFrameSamples);
        for (int i = 0; i < 300 && playing; ++i) {
            tone.Fill(out);
            if (!playback->Write(out)) ++failedWrites;
        }
    });
    int toneFrames = 0;
    for (int i = 0; i < 300 && toneFrames < 20; ++i) {
        if (!capture->Read(frame)) break;
        if (Rms(LeftChannel(frame)) > 1000) ++toneFrames;
    }
    playing = false;
    player.join();
    EXPECT_GE(toneFrames, 20) << "the tone was not heard on the new default after its device went";
    EXPECT_LE(failedWrites, 2) << "the device's loss costs at most the frame that saw it";
}

// The capture side of the same: a microphone stream whose source goes reads on from the default source.
TEST_F(WasapiBackend, ACaptureWhoseDeviceGoesCarriesOnOnTheDefault) {
    auto source = Named(backend_->InputDevices(), "svcpp-vsrc");
    ASSERT_TRUE(source);
    auto capture = backend_->OpenCapture(source->id);
    ASSERT_TRUE(capture);
    std::vector<int16_t> frame(kDeviceFrameSamples);
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(capture->Read(frame));
    ASSERT_EQ(Request("unload-source-vsrc"), "");
    int failedReads = 0;
    for (int i = 0; i < 50; ++i)
        if (!capture->Read(frame)) ++failedReads;
    EXPECT_LE(failedReads, 2) << "the source's loss costs at most the frame that saw it";
}
