// Volume settings shared between the API thread (setters) and the audio thread (readers): plain atomics, so the
// audio path takes no lock. Setters validate and refuse out-of-range values (NaN included), changing nothing.
#pragma once
#include <atomic>
#include <cstdint>

namespace svcpp::core::voice {

/** Participant volume and output volume range: percent, 100 = unity gain, 200 = ×2 amplitude (+6 dB). */
inline constexpr float kMaxPlaybackVolume = 200.0f;
/** Input (capture) volume range: percent, 100 = unity, 0 = silent. */
inline constexpr float kMaxInputVolume = 100.0f;

/** True for a finite value in [0, max]. */
bool IsValidVolume(float percent, float max);

/** Linear amplitude gain of a playback volume (participant or output): percent / 100. */
float PlaybackGain(float percent);
/**
 * Linear amplitude gain of the input volume, perceptual: (percent / 100)², so the slider's middle (50) is about
 * −12 dB rather than −6 dB, closer to how loud it sounds; 100 = unity.
 */
float InputGain(float percent);

/** One remote participant's local playback settings (per call, per user). Lives as long as the participant does. */
class ParticipantMixSettings {
  public:
    /** [0, 200]; false (unchanged) otherwise. */
    bool SetVolume(float percent);
    float Volume() const { return volume_.load(std::memory_order_relaxed); }
    /** Local mute: this user is not heard by us (others still hear them). */
    void SetLocalMute(bool mute) { localMute_.store(mute, std::memory_order_relaxed); }
    bool LocalMute() const { return localMute_.load(std::memory_order_relaxed); }

  private:
    std::atomic<float> volume_{100.0f};
    std::atomic<bool> localMute_{false};
};

}  // namespace svcpp::core::voice
