// Test signals and measurements for the voice media suites: sine tones, RMS, frequency by zero crossings.
#pragma once
#include <cmath>
#include <numbers>  // std::numbers::pi: M_PI is POSIX's, not in strict C++ (MinGW)
#include <cstdint>
#include <span>
#include <vector>

#include "voice/media/audio_format.hpp"

/** A continuous stereo sine tone (same on both channels), filled frame after frame without phase jumps. */
class ToneGenerator {
  public:
    ToneGenerator(double frequency, double amplitude) : frequency_(frequency), amplitude_(amplitude) {}
    void Fill(std::span<int16_t> interleaved) {
        for (std::size_t i = 0; i + 1 < interleaved.size(); i += 2) {
            double v = amplitude_ * 32767.0 *
                       std::sin(2 * std::numbers::pi * frequency_ * static_cast<double>(n_++) /
                                svcpp::core::voice::kSampleRate);
            interleaved[i] = interleaved[i + 1] = static_cast<int16_t>(std::lround(v));
        }
    }

  private:
    double frequency_, amplitude_;
    uint64_t n_ = 0;
};

inline std::vector<int16_t> LeftChannel(std::span<const int16_t> interleaved) {
    std::vector<int16_t> left;
    for (std::size_t i = 0; i < interleaved.size(); i += 2) left.push_back(interleaved[i]);
    return left;
}

inline double Rms(std::span<const int16_t> pcm) {
    if (pcm.empty()) return 0;
    double sum = 0;
    for (int16_t s : pcm) sum += double(s) * s;
    return std::sqrt(sum / pcm.size());
}

/** Frequency of a mono signal from its rising zero crossings (robust for a clean tone). */
inline double EstimateFrequency(std::span<const int16_t> mono, int sampleRate) {
    int first = -1, last = -1, crossings = 0;
    for (std::size_t i = 1; i < mono.size(); ++i) {
        if (mono[i - 1] < 0 && mono[i] >= 0) {
            if (first < 0) first = int(i);
            last = int(i);
            ++crossings;
        }
    }
    if (crossings < 2) return 0;
    return double(crossings - 1) * sampleRate / double(last - first);
}
