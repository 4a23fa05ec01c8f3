#include "voice/media/volume.hpp"

#include <cmath>

namespace svcpp::core::voice {

bool IsValidVolume(float percent, float max) { return std::isfinite(percent) && percent >= 0.0f && percent <= max; }

float PlaybackGain(float percent) { return percent / 100.0f; }

float InputGain(float percent) {
    float x = percent / 100.0f;
    return x * x;
}

bool ParticipantMixSettings::SetVolume(float percent) {
    if (!IsValidVolume(percent, kMaxPlaybackVolume)) return false;
    volume_.store(percent, std::memory_order_relaxed);
    return true;
}

}  // namespace svcpp::core::voice
