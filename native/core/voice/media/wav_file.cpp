#include "voice/media/wav_file.hpp"

#include "files/utf8_file.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace svcpp::core::voice {

namespace {
/** The highest sample rate a WAV file may declare (professional audio stops at 768 kHz). */
constexpr uint32_t kMaxWavSampleRate = 768000;

// WAV is little-endian; so is every machine svcpp builds for (x86-64, arm64), but say it with explicit byte order.
uint32_t Le32(const uint8_t *p) {
    return p[0] | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
           static_cast<uint32_t>(p[3]) << 24;
}
uint16_t Le16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
void PutLe32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void PutLe16(uint8_t *p, uint16_t v) {
    p[0] = static_cast<uint8_t>(v);
    p[1] = static_cast<uint8_t>(v >> 8);
}

constexpr std::size_t kHeaderSize = 44;

void Header(uint8_t *h, int sampleRate, int channels, uint64_t samples) {
    uint64_t bytes64 = samples * 2;
    uint32_t bytes = bytes64 > 0xFFFFFFFFu - 36 ? 0xFFFFFFFFu - 36 : static_cast<uint32_t>(bytes64);
    std::memcpy(h, "RIFF", 4);
    PutLe32(h + 4, 36 + bytes);
    std::memcpy(h + 8, "WAVEfmt ", 8);
    PutLe32(h + 16, 16);
    PutLe16(h + 20, 1);  // PCM
    PutLe16(h + 22, static_cast<uint16_t>(channels));
    PutLe32(h + 24, static_cast<uint32_t>(sampleRate));
    PutLe32(h + 28, static_cast<uint32_t>(sampleRate * channels * 2));
    PutLe16(h + 32, static_cast<uint16_t>(channels * 2));
    PutLe16(h + 34, 16);
    std::memcpy(h + 36, "data", 4);
    PutLe32(h + 40, bytes);
}

bool Fail(std::string *error, std::string message) {
    if (error) *error = std::move(message);
    return false;
}

}  // namespace

std::optional<WavAudio> ReadWavFile(const std::string &path, std::string *error) {
    std::FILE *f = files::OpenUtf8File(path, "rb");
    if (!f) {
        Fail(error, "cannot open " + path);
        return std::nullopt;
    }
    std::vector<uint8_t> bytes;
    uint8_t buffer[65536];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;)
        bytes.insert(bytes.end(), buffer, buffer + n);
    std::fclose(f);

    if (bytes.size() < 12 || std::memcmp(bytes.data(), "RIFF", 4) != 0 ||
        std::memcmp(bytes.data() + 8, "WAVE", 4) != 0) {
        Fail(error, path + " is not a RIFF/WAVE file");
        return std::nullopt;
    }
    WavAudio audio;
    bool haveFormat = false;
    // Chunks: fmt, data, and any others (LIST, fact, …) skipped; each is padded to an even size.
    for (std::size_t at = 12; at + 8 <= bytes.size();) {
        const uint8_t *chunk = bytes.data() + at;
        uint32_t size = Le32(chunk + 4);
        std::size_t body = at + 8;
        std::size_t available = bytes.size() - body;
        if (std::memcmp(chunk, "fmt ", 4) == 0) {
            if (size < 16 || available < 16) break;
            uint16_t format = Le16(chunk + 8);
            uint16_t bits = Le16(chunk + 22);
            // WAVE_FORMAT_EXTENSIBLE (0xFFFE) with 16-bit samples is PCM too (parecord writes it).
            if ((format != 1 && format != 0xFFFE) || bits != 16) {
                Fail(error, path + " is not 16-bit PCM");
                return std::nullopt;
            }
            audio.channels = Le16(chunk + 10);
            // The field is unsigned 32-bit: a hostile or broken header (found by native/fuzz/fuzz_wav) can hold a
            // rate above INT_MAX, which read as an int turned negative and reached the audio device's frame
            // arithmetic. No real file has more than 768 kHz.
            const uint32_t rate = Le32(chunk + 12);
            if (rate == 0 || rate > kMaxWavSampleRate) {
                Fail(error, path + " has an impossible sample rate (" + std::to_string(rate) + " Hz)");
                return std::nullopt;
            }
            audio.sampleRate = static_cast<int>(rate);
            haveFormat = true;
        } else if (std::memcmp(chunk, "data", 4) == 0) {
            if (!haveFormat || audio.channels == 0) break;
            // Streams written live (parecord) may leave the size at its maximum: take what the file has.
            std::size_t length = std::min<std::size_t>(size, available) & ~std::size_t{1};
            audio.samples.resize(length / 2);
            for (std::size_t i = 0; i < audio.samples.size(); ++i)
                audio.samples[i] = static_cast<int16_t>(Le16(bytes.data() + body + 2 * i));
            return audio;
        }
        at = body + size + (size & 1);
    }
    Fail(error, path + " has no fmt/data chunk");
    return std::nullopt;
}

bool WriteWavFile(const std::string &path, const WavAudio &audio) {
    auto writer = WavWriter::Open(path, audio.sampleRate, audio.channels);
    return writer && writer->Write(audio.samples) && writer->Close();
}

std::unique_ptr<WavWriter> WavWriter::Open(const std::string &path, int sampleRate, int channels) {
    if (sampleRate <= 0 || channels <= 0 || channels > 8) return nullptr;
    std::FILE *f = files::OpenUtf8File(path, "wb");
    if (!f) return nullptr;
    uint8_t header[kHeaderSize];
    Header(header, sampleRate, channels, 0);
    if (std::fwrite(header, 1, kHeaderSize, f) != kHeaderSize) {
        std::fclose(f);
        return nullptr;
    }
    return std::unique_ptr<WavWriter>(new WavWriter(f, sampleRate, channels));
}

bool WavWriter::Write(std::span<const int16_t> interleaved) {
    if (!file_) return false;
    uint8_t chunk[1024];
    std::size_t i = 0;
    while (i < interleaved.size()) {
        std::size_t n = std::min<std::size_t>(sizeof chunk / 2, interleaved.size() - i);
        for (std::size_t k = 0; k < n; ++k) PutLe16(chunk + 2 * k, static_cast<uint16_t>(interleaved[i + k]));
        if (std::fwrite(chunk, 2, n, file_) != n) ok_ = false;
        i += n;
    }
    samples_ += interleaved.size();
    return ok_;
}

bool WavWriter::Close() {
    if (!file_) return ok_;
    uint8_t header[kHeaderSize];
    Header(header, sampleRate_, channels_, samples_);
    if (std::fseek(file_, 0, SEEK_SET) != 0 || std::fwrite(header, 1, kHeaderSize, file_) != kHeaderSize) ok_ = false;
    if (std::fclose(file_) != 0) ok_ = false;
    file_ = nullptr;
    return ok_;
}

WavWriter::~WavWriter() { Close(); }

}  // namespace svcpp::core::voice
