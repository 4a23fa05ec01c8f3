// AudioProcessor where WebRTC's audio-processing module is not built (SVCPP_WEBRTC_APM=OFF; today Windows, whose
// Debian source package is not on the mirror: docs/platforms.md). Create answers null, as it does when the module
// refuses the format, and the audio engine then sends the captured signal unprocessed: no echo cancellation, noise
// suppression or gain control, and the automatic VAD mode falls back to the level gate it uses without a verdict.
#include "voice/media/audio_processor.hpp"

namespace svcpp::core::voice {

struct AudioProcessor::Impl {};

std::unique_ptr<AudioProcessor> AudioProcessor::Create(const AudioProcessingSettings &) { return nullptr; }

AudioProcessor::AudioProcessor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AudioProcessor::~AudioProcessor() = default;

AudioProcessingSettings AudioProcessor::Settings() const {
    return {wanted_.echo.load(std::memory_order_relaxed), wanted_.noise.load(std::memory_order_relaxed),
            wanted_.gain.load(std::memory_order_relaxed), wanted_.highNoise.load(std::memory_order_relaxed)};
}

void AudioProcessor::ApplySettings() {}
bool AudioProcessor::AnalyzeFarEnd(std::span<const int16_t>) { return false; }
bool AudioProcessor::ProcessCapture(std::span<int16_t>) { return false; }

}  // namespace svcpp::core::voice
