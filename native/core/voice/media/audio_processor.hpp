// AudioProcessor: echo cancellation (AEC), noise suppression (NS) and automatic gain control (AGC) on the captured
// signal, plus voice detection for the automatic VAD mode — WebRTC's audio-processing module 0.3 (Debian's
// libwebrtc-audio-processing, linked statically and hidden into the core). 10 ms frames, 48 kHz stereo s16.
//
//   far end:  mixer output, 10 ms at a time → AnalyzeFarEnd  (what the speakers play, so AEC can remove its echo)
//   near end: captured 10 ms frame           → ProcessCapture (in place)
//
// Threads: both calls on the audio thread (the module is not thread-safe); the Set* switches from any thread, taking
// effect at the next ProcessCapture. Set-up allocates; processing does not.
#pragma once
#include <atomic>
#include <memory>
#include <optional>
#include <span>

namespace svcpp::core::voice {

struct AudioProcessingSettings {
    bool echoCancellation = true;
    bool noiseSuppression = true;
    bool automaticGainControl = true;
    /** Stronger NS ("noise cancellation" of the SDK surface, which has no open Krisp equivalent). */
    bool highNoiseSuppression = false;
};

class AudioProcessor {
  public:
    /** Null when the module cannot be created (it refuses the format). All switches start as in `settings`. */
    static std::unique_ptr<AudioProcessor> Create(const AudioProcessingSettings &settings = {});
    ~AudioProcessor();
    AudioProcessor(const AudioProcessor &) = delete;
    AudioProcessor &operator=(const AudioProcessor &) = delete;

    void SetEchoCancellation(bool on) { wanted_.echo.store(on, std::memory_order_relaxed); }
    void SetNoiseSuppression(bool on) { wanted_.noise.store(on, std::memory_order_relaxed); }
    void SetHighNoiseSuppression(bool on) { wanted_.highNoise.store(on, std::memory_order_relaxed); }
    void SetAutomaticGainControl(bool on) { wanted_.gain.store(on, std::memory_order_relaxed); }
    AudioProcessingSettings Settings() const;

    /**
     * Estimated delay between playing a frame and capturing its echo, in ms (device latency); helps AEC converge.
     * Any thread.
     */
    void SetStreamDelayMs(int ms) { delayMs_.store(ms, std::memory_order_relaxed); }

    /** Feeds one 10 ms frame of what is being played (kDeviceFrameSamples). False when the module rejected it. */
    bool AnalyzeFarEnd(std::span<const int16_t> frame);
    /** Processes one captured 10 ms frame in place. False (frame unchanged) when the module rejected it. */
    bool ProcessCapture(std::span<int16_t> frame);
    /** The module's voice detector verdict on the last processed frame (nullopt before the first). */
    std::optional<bool> VoiceDetected() const { return voice_; }

  private:
    struct Impl;
    explicit AudioProcessor(std::unique_ptr<Impl> impl);
    void ApplySettings();

    std::unique_ptr<Impl> impl_;
    struct Wanted {
        std::atomic<bool> echo{true}, noise{true}, highNoise{false}, gain{true};
    } wanted_;
    std::atomic<int> delayMs_{0};
    std::optional<bool> voice_;
};

}  // namespace svcpp::core::voice
