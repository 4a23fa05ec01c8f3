// The null device: one "default" input that captures digital silence and one "default" output that discards what it
// is given. Clock-paced (Read/Write return at once): the engine's AudioClock sets the cadence.
#include <algorithm>

#include "voice/media/audio_backend.hpp"

namespace svcpp::core::voice {

namespace {

class NullCapture final : public AudioCaptureStream {
  public:
    bool Read(std::span<int16_t> frame) override {
        std::ranges::fill(frame, int16_t{0});
        return true;
    }
};

class NullPlayback final : public AudioPlaybackStream {
  public:
    bool Write(std::span<const int16_t>) override { return true; }
};

bool IsDefaultId(std::string_view id) { return id.empty() || id == kDefaultAudioDeviceId; }

class NullAudioBackend final : public AudioBackend {
  public:
    std::string_view Name() const override { return "null"; }
    bool IsClockPaced() const override { return true; }
    std::vector<AudioDeviceInfo> InputDevices() override {
        return {{std::string(kDefaultAudioDeviceId), "No input", true}};
    }
    std::vector<AudioDeviceInfo> OutputDevices() override {
        return {{std::string(kDefaultAudioDeviceId), "No output", true}};
    }
    std::unique_ptr<AudioCaptureStream> OpenCapture(std::string_view id) override {
        return IsDefaultId(id) ? std::make_unique<NullCapture>() : nullptr;
    }
    std::unique_ptr<AudioPlaybackStream> OpenPlayback(std::string_view id) override {
        return IsDefaultId(id) ? std::make_unique<NullPlayback>() : nullptr;
    }
    void SetDeviceChangeCallback(DeviceChangeCallback) override {}  // its devices never change
};

}  // namespace

std::unique_ptr<AudioBackend> CreateNullAudioBackend() { return std::make_unique<NullAudioBackend>(); }

}  // namespace svcpp::core::voice
