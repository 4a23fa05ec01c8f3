// Minimal RIFF/WAVE PCM s16 reader and writer for the file audio device, tests and benchmarks. Set-up code (they
// allocate and do file I/O): never on the audio thread except through the WAV device, which reads and writes
// whole 10 ms frames on buffered streams.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace svcpp::core::voice {

struct WavAudio {
    int sampleRate = 0;
    int channels = 0;
    std::vector<int16_t> samples;  // interleaved
};

/** Reads a PCM s16 WAV file whole. nullopt (with `error`) when missing, not RIFF/WAVE, or not 16-bit PCM. */
std::optional<WavAudio> ReadWavFile(const std::string &path, std::string *error = nullptr);

/** Writes a PCM s16 WAV file whole. False when it cannot be written. */
bool WriteWavFile(const std::string &path, const WavAudio &audio);

/** Appends PCM s16 frames to a WAV file and fixes the header sizes on Close() (or destruction). */
class WavWriter {
  public:
    static std::unique_ptr<WavWriter> Open(const std::string &path, int sampleRate, int channels);
    ~WavWriter();
    WavWriter(const WavWriter &) = delete;
    WavWriter &operator=(const WavWriter &) = delete;

    bool Write(std::span<const int16_t> interleaved);
    /** Writes the final sizes and closes; false when a write failed at any point. */
    bool Close();
    uint64_t SamplesWritten() const { return samples_; }

  private:
    WavWriter(std::FILE *file, int sampleRate, int channels)
        : file_(file), sampleRate_(sampleRate), channels_(channels) {}
    std::FILE *file_;
    int sampleRate_;
    int channels_;
    uint64_t samples_ = 0;
    bool ok_ = true;
};

}  // namespace svcpp::core::voice
