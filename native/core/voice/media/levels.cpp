#include "voice/media/levels.hpp"

#include <algorithm>
#include <cmath>

namespace svcpp::core::voice {

float LevelDbfs(std::span<const int16_t> pcm) {
    if (pcm.empty()) return kSilenceDbfs;
    double sum = 0;
    for (int16_t s : pcm) sum += static_cast<double>(s) * s;
    double rms = std::sqrt(sum / static_cast<double>(pcm.size())) / 32768.0;
    if (rms <= 0) return kSilenceDbfs;
    return std::max(kSilenceDbfs, static_cast<float>(20.0 * std::log10(rms)));
}

// ---- VoiceActivityGate ----

namespace {
constexpr float kAutoMarginDb = 9.0f;          // speech must stand this far above the noise floor
constexpr float kAutoMinThresholdDb = -70.0f;  // never call anything quieter than this speech
// 3 dB per second at 10 ms frames: slow enough that words (with their pauses, where the floor drops back at once) do
// not lift it, fast enough to learn a new steady noise within seconds.
constexpr float kFloorRisePerFrameDb = 0.03f;
constexpr int kFrameMs = 10;
}  // namespace

bool VoiceActivityGate::SetThreshold(bool automatic, float thresholdDb) {
    if (!std::isfinite(thresholdDb) || thresholdDb < -100.0f || thresholdDb > 0.0f) return false;
    thresholdDb_.store(thresholdDb, std::memory_order_relaxed);
    automatic_.store(automatic, std::memory_order_relaxed);
    return true;
}

VadThreshold VoiceActivityGate::Threshold() const {
    return VadThreshold{automatic_.load(std::memory_order_relaxed), thresholdDb_.load(std::memory_order_relaxed)};
}

bool VoiceActivityGate::Process(float levelDb, std::optional<bool> processorVoice) {
    bool active;
    if (automatic_.load(std::memory_order_relaxed)) {
        // The floor tracks the quietest recent level: from the first frame, then down at once and up slowly.
        if (!haveFloor_) {
            noiseFloorDb_ = levelDb;
            haveFloor_ = true;
        }
        noiseFloorDb_ = levelDb < noiseFloorDb_ ? levelDb : std::min(levelDb, noiseFloorDb_ + kFloorRisePerFrameDb);
        if (processorVoice) {
            active = *processorVoice;
        } else {
            active = levelDb >= std::max(kAutoMinThresholdDb, noiseFloorDb_ + kAutoMarginDb);
        }
    } else {
        active = levelDb >= thresholdDb_.load(std::memory_order_relaxed);
    }
    if (active) {
        hangoverLeftMs_ = kHangoverMs;
        open_ = true;
    } else if (hangoverLeftMs_ > 0) {
        hangoverLeftMs_ -= kFrameMs;
        open_ = true;
    } else {
        open_ = false;
    }
    return open_;
}

// ---- PushToTalkGate ----

bool PushToTalkGate::Process(int frameMs) {
    bool active = Active();
    if (active) {
        wasActive_ = true;
        return true;
    }
    if (wasActive_) {  // just released: start the release delay
        wasActive_ = false;
        releaseLeftMs_ = ReleaseDelayMs();
    }
    if (releaseLeftMs_ == 0) return false;
    releaseLeftMs_ = releaseLeftMs_ > static_cast<uint32_t>(frameMs) ? releaseLeftMs_ - frameMs : 0;
    return true;
}

// ---- NoAudioInputDetector ----

bool NoAudioInputDetector::SetThreshold(float dbfs) {
    if (!std::isfinite(dbfs) || dbfs < -100.0f || dbfs > 100.0f) return false;
    thresholdDb_.store(dbfs, std::memory_order_relaxed);
    return true;
}

std::optional<bool> NoAudioInputDetector::Process(float levelDb, int frameMs) {
    float threshold = Threshold();
    if (threshold != lastThreshold_) {  // a new threshold: decide afresh
        lastThreshold_ = threshold;
        reported_.reset();
        silentMs_ = 0;
    }
    if (threshold <= kOff) return std::nullopt;
    std::optional<bool> decision;
    if (levelDb >= threshold) {
        silentMs_ = 0;
        decision = true;
    } else {
        silentMs_ = std::min(silentMs_ + frameMs, kSilentMs);
        if (silentMs_ >= kSilentMs) decision = false;
    }
    if (!decision || decision == reported_) return std::nullopt;
    reported_ = decision;
    return decision;
}

}  // namespace svcpp::core::voice
