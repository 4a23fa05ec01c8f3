#include "voice/media/mixer.hpp"

#include <algorithm>
#include <cmath>

namespace svcpp::core::voice {

namespace {

int16_t Saturate(int64_t v) { return static_cast<int16_t>(std::clamp<int64_t>(v, INT16_MIN, INT16_MAX)); }

// Gains are applied in Q16 fixed point: exact for unity (65536) and cheap in the per-sample loop.
int32_t ToQ16(float gain) { return static_cast<int32_t>(std::lround(std::clamp(gain, 0.0f, 32.0f) * 65536.0f)); }

}  // namespace

bool Mixer::SetOutputVolume(float percent) {
    if (!IsValidVolume(percent, kMaxPlaybackVolume)) return false;
    outputVolume_.store(percent, std::memory_order_relaxed);
    return true;
}

void Mixer::Begin(std::size_t samples) {
    samples_ = std::min(samples, kMaxSamples);
    std::fill_n(accumulator_.begin(), samples_, 0);
    sources_ = 0;
}

bool Mixer::Add(std::span<const int16_t> pcm, const ParticipantMixSettings &participant, bool outShouldMute) {
    if (outShouldMute || participant.LocalMute()) return false;
    Add(pcm, PlaybackGain(participant.Volume()));
    return true;
}

void Mixer::Add(std::span<const int16_t> pcm, float gain) {
    std::size_t n = std::min(pcm.size(), samples_);
    int32_t q = ToQ16(gain);
    if (q == 65536) {
        for (std::size_t i = 0; i < n; ++i) accumulator_[i] += pcm[i];
    } else {
        // int32 headroom: each term is at most 32768 × 2 (volume 200 %), so 2^15 such terms fit before overflow.
        for (std::size_t i = 0; i < n; ++i) accumulator_[i] += static_cast<int32_t>((int64_t{pcm[i]} * q) >> 16);
    }
    ++sources_;
}

void Mixer::Finish(std::span<int16_t> out) {
    std::size_t n = std::min(out.size(), samples_);
    int64_t q = ToQ16(PlaybackGain(OutputVolume()));
    for (std::size_t i = 0; i < n; ++i) out[i] = Saturate((int64_t{accumulator_[i]} * q) >> 16);
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(n), out.end(), int16_t{0});
}

bool InputVolume::Set(float percent) {
    if (!IsValidVolume(percent, kMaxInputVolume)) return false;
    volume_.store(percent, std::memory_order_relaxed);
    return true;
}

void InputVolume::Apply(std::span<int16_t> pcm) const {
    float v = Get();
    if (v == 100.0f) return;
    ApplyGain(pcm, InputGain(v));
}

void ApplyGain(std::span<int16_t> pcm, float gain) {
    int64_t q = ToQ16(gain);
    if (q == 65536) return;
    for (int16_t &s : pcm) s = Saturate((int64_t{s} * q) >> 16);
}

}  // namespace svcpp::core::voice
