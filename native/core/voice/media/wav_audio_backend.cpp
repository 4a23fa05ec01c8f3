// The WAV file device: the input WAV is loaded whole at Open (mono is duplicated to both channels) so Read never does
// I/O; the output WAV is appended to through a buffered stream. Clock-paced, like the null device.
#include <algorithm>

#include "voice/media/audio_backend.hpp"
#include "voice/media/wav_file.hpp"

namespace svcpp::core::voice {

namespace {

bool IsDefaultId(std::string_view id) { return id.empty() || id == kDefaultAudioDeviceId; }

class WavCapture final : public AudioCaptureStream {
  public:
    WavCapture(std::vector<int16_t> stereo, bool loop) : samples_(std::move(stereo)), loop_(loop) {}
    bool Read(std::span<int16_t> frame) override {
        for (int16_t &s : frame) {
            if (position_ >= samples_.size()) {
                if (!loop_ || samples_.empty()) {
                    s = 0;
                    continue;
                }
                position_ = 0;
            }
            s = samples_[position_++];
        }
        return true;
    }

  private:
    std::vector<int16_t> samples_;
    std::size_t position_ = 0;
    bool loop_;
};

class WavPlayback final : public AudioPlaybackStream {
  public:
    explicit WavPlayback(std::unique_ptr<WavWriter> writer) : writer_(std::move(writer)) {}
    bool Write(std::span<const int16_t> frame) override { return !writer_ || writer_->Write(frame); }

  private:
    std::unique_ptr<WavWriter> writer_;  // null: discard
};

class WavAudioBackend final : public AudioBackend {
  public:
    WavAudioBackend(WavFileBackendOptions options, std::vector<int16_t> input)
        : options_(std::move(options)), input_(std::move(input)) {}

    std::string_view Name() const override { return "wav"; }
    bool IsClockPaced() const override { return true; }
    std::vector<AudioDeviceInfo> InputDevices() override {
        return {{std::string(kDefaultAudioDeviceId),
                 options_.inputPath.empty() ? "WAV input (silence)" : options_.inputPath, true}};
    }
    std::vector<AudioDeviceInfo> OutputDevices() override {
        return {{std::string(kDefaultAudioDeviceId),
                 options_.outputPath.empty() ? "WAV output (discarded)" : options_.outputPath, true}};
    }
    std::unique_ptr<AudioCaptureStream> OpenCapture(std::string_view id) override {
        if (!IsDefaultId(id)) return nullptr;
        return std::make_unique<WavCapture>(input_, options_.loopInput);
    }
    std::unique_ptr<AudioPlaybackStream> OpenPlayback(std::string_view id) override {
        if (!IsDefaultId(id)) return nullptr;
        if (options_.outputPath.empty()) return std::make_unique<WavPlayback>(nullptr);
        auto writer = WavWriter::Open(options_.outputPath, kSampleRate, kChannels);
        if (!writer) return nullptr;
        return std::make_unique<WavPlayback>(std::move(writer));
    }
    void SetDeviceChangeCallback(DeviceChangeCallback) override {}  // files do not come and go

  private:
    WavFileBackendOptions options_;
    std::vector<int16_t> input_;  // stereo
};

}  // namespace

std::unique_ptr<AudioBackend> CreateWavFileAudioBackend(const WavFileBackendOptions &options, std::string *error) {
    std::vector<int16_t> stereo;
    if (!options.inputPath.empty()) {
        auto wav = ReadWavFile(options.inputPath, error);
        if (!wav) return nullptr;
        if (wav->sampleRate != kSampleRate || (wav->channels != 1 && wav->channels != 2)) {
            if (error) *error = options.inputPath + ": the WAV device needs 48000 Hz mono or stereo";
            return nullptr;
        }
        if (wav->channels == 2) {
            stereo = std::move(wav->samples);
            stereo.resize(stereo.size() & ~std::size_t{1});
        } else {
            stereo.reserve(wav->samples.size() * 2);
            for (int16_t s : wav->samples) stereo.insert(stereo.end(), {s, s});
        }
    }
    if (!options.outputPath.empty()) {
        // Fail now, not at the first OpenPlayback, when the output cannot be created.
        if (!WavWriter::Open(options.outputPath, kSampleRate, kChannels)) {
            if (error) *error = "cannot create " + options.outputPath;
            return nullptr;
        }
    }
    return std::make_unique<WavAudioBackend>(options, std::move(stereo));
}

}  // namespace svcpp::core::voice
