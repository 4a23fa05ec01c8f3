// Levels and gates on the capture path, run on the audio thread once per 10 ms device frame. No allocation, no lock;
// settings are atomics so the API thread can change them at any time.
//
//   capture → LevelMeter (pre-processing level) → NoAudioInputDetector
//           → AudioProcessor (AEC/NS/AGC, may report voice) → VoiceActivityGate (VAD mode) or PushToTalkGate (PTT mode)
//           → encoder, only while the gate is open
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>

namespace svcpp::core::voice {

/** The quietest level we report: digital silence is −100 dBFS, not −∞. */
inline constexpr float kSilenceDbfs = -100.0f;

/** RMS level of a frame in dBFS (a full-scale square wave is 0 dBFS, a full-scale sine about −3), ≥ kSilenceDbfs. */
float LevelDbfs(std::span<const int16_t> pcm);

/** VAD threshold settings as the SDK surface has them (Call::GetVADThreshold / SetVADThreshold). */
struct VadThreshold {
    bool automatic = true;
    float thresholdDb = -60.0f;  // [-100, 0] dBFS; used when !automatic
};

/**
 * Voice activity gate. Manual mode: open while the frame level ≥ the threshold. Automatic mode: open on the audio
 * processor's voice detection (webrtc's VAD) when it supplies one, else on an energy detector with an adaptive
 * threshold: 9 dB above a tracked noise floor (the floor starts at the first frame's level, follows quieter frames at
 * once and louder ones slowly, 3 dB per second), never below −70 dBFS. Either way the gate stays open for a hangover
 * after the last active frame (200 ms), so word endings are not clipped.
 */
class VoiceActivityGate {
  public:
    static constexpr int kHangoverMs = 200;

    /** threshold in [-100, 0] (checked even when automatic); false (unchanged) otherwise. Any thread. */
    bool SetThreshold(bool automatic, float thresholdDb);
    VadThreshold Threshold() const;

    /**
     * Feeds one 10 ms frame's level (LevelDbfs, taken after processing) and, when the audio processor ran its voice
     * detector, its verdict. Returns whether the gate is open for this frame.
     */
    bool Process(float levelDb, std::optional<bool> processorVoice = std::nullopt);
    bool IsOpen() const { return open_; }
    float NoiseFloorDb() const { return noiseFloorDb_; }

  private:
    std::atomic<bool> automatic_{true};
    std::atomic<float> thresholdDb_{-60.0f};
    bool open_ = false;
    int hangoverLeftMs_ = 0;
    float noiseFloorDb_ = -70.0f;
    bool haveFloor_ = false;
};

/**
 * Push-to-talk gate: open while the application holds PTT active, and for the release delay after it lets go
 * (Call::SetPTTReleaseDelay; default 0 ms). Time is counted in processed frames, so it is exact and testable.
 */
class PushToTalkGate {
  public:
    void SetActive(bool active) { active_.store(active, std::memory_order_relaxed); }
    bool Active() const { return active_.load(std::memory_order_relaxed); }
    void SetReleaseDelayMs(uint32_t ms) { releaseDelayMs_.store(ms, std::memory_order_relaxed); }
    uint32_t ReleaseDelayMs() const { return releaseDelayMs_.load(std::memory_order_relaxed); }

    /** Advances by one frame of `frameMs`; returns whether the gate is open for it. */
    bool Process(int frameMs = 10);

  private:
    std::atomic<bool> active_{false};
    std::atomic<uint32_t> releaseDelayMs_{0};
    bool wasActive_ = false;
    uint32_t releaseLeftMs_ = 0;
};

/**
 * No-audio-input detector (Client::SetNoAudioInputThreshold / SetNoAudioInputCallback): tells whether the
 * microphone delivers anything above a threshold, to catch a muted or wrong device. Threshold in [-100, 100] dBFS;
 * −100 (the default) turns detection off. "No input" is reported after `kSilentMs` below the threshold; "input" as
 * soon as one frame reaches it. Reports only changes.
 */
class NoAudioInputDetector {
  public:
    static constexpr int kSilentMs = 2000;
    static constexpr float kOff = -100.0f;

    bool SetThreshold(float dbfs);
    float Threshold() const { return thresholdDb_.load(std::memory_order_relaxed); }

    /**
     * Feeds one frame's pre-processing level. Returns true/false when the state changes (true = input detected),
     * nullopt otherwise or while detection is off. The first report after enabling comes after the first decision.
     */
    std::optional<bool> Process(float levelDb, int frameMs = 10);

  private:
    std::atomic<float> thresholdDb_{kOff};
    std::optional<bool> reported_;
    int silentMs_ = 0;
    float lastThreshold_ = kOff;
};

}  // namespace svcpp::core::voice
