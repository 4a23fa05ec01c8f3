// Mixer: sums the decoded 20 ms (or 10 ms) frames of every remote sender into the one frame sent to the output
// device, and applies the input (capture) volume.
//
// Audio thread only (Begin/Add/Finish); the output volume may be set from any thread (atomic). The accumulator is
// int32 and preallocated: no allocation, no lock. The result saturates to int16 instead of wrapping.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <span>

#include "voice/media/audio_format.hpp"
#include "voice/media/volume.hpp"

namespace svcpp::core::voice {

class Mixer {
  public:
    /** Largest frame the mixer takes: one Opus frame (20 ms stereo). */
    static constexpr std::size_t kMaxSamples = kOpusFrameSamples;

    /** Output volume [0, 200] (100 = unity); false (unchanged) otherwise. Any thread. */
    bool SetOutputVolume(float percent);
    float OutputVolume() const { return outputVolume_.load(std::memory_order_relaxed); }

    /** Starts a frame of `samples` interleaved samples (≤ kMaxSamples; larger is clamped) with silence. */
    void Begin(std::size_t samples = kOpusFrameSamples);

    /**
     * Adds one sender's decoded frame, scaled by its volume. Skipped (returns false) when the participant is locally
     * muted, or when the application's received-audio callback set `outShouldMute` (it heard the audio itself and
     * keeps it out of the SDK's mix). `pcm` shorter than the frame adds only what it has.
     */
    bool Add(std::span<const int16_t> pcm, const ParticipantMixSettings &participant, bool outShouldMute = false);
    /** Adds a frame at unity gain (no per-user settings: tests, local monitoring). */
    void Add(std::span<const int16_t> pcm, float gain = 1.0f);

    /** Writes the mix × output volume into `out` (its size should be the frame size), saturating to int16. */
    void Finish(std::span<int16_t> out);

    /** Streams added to the current frame. */
    int Sources() const { return sources_; }

  private:
    std::array<int32_t, kMaxSamples> accumulator_{};
    std::size_t samples_ = 0;
    int sources_ = 0;
    std::atomic<float> outputVolume_{100.0f};
};

/** Capture-side input volume [0, 100] (perceptual, see InputGain). Set from any thread, applied on the audio thread. */
class InputVolume {
  public:
    bool Set(float percent);
    float Get() const { return volume_.load(std::memory_order_relaxed); }
    /** Scales `pcm` in place, saturating. A no-op at 100. */
    void Apply(std::span<int16_t> pcm) const;

  private:
    std::atomic<float> volume_{100.0f};
};

/** Multiplies in place by a linear gain, saturating to int16 (gain ≥ 0). */
void ApplyGain(std::span<int16_t> pcm, float gain);

}  // namespace svcpp::core::voice
