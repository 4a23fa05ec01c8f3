// libFuzzer target: the WAV reader (voice/media/wav_file.cpp). The file audio device and the tools read WAV files a
// user names; a truncated or hostile file must give nullopt with an error, never a crash or a huge allocation from
// a lying header. The reader takes a path, so each input is written to a private temporary file first.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

#include "voice/media/wav_file.hpp"

using namespace svcpp::core::voice;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const std::string path = "/tmp/svcpp-fuzz-wav-" + std::to_string(getpid()) + ".wav";
    std::FILE *file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) return 0;
    if (size > 0) std::fwrite(data, 1, size, file);
    std::fclose(file);
    std::string error;
    const auto audio = ReadWavFile(path, &error);
    if (audio) {
        if (audio->channels <= 0 || audio->sampleRate <= 0) __builtin_trap();
        if (audio->samples.size() * sizeof(int16_t) > size) __builtin_trap();  // samples come from the file's bytes
    } else if (error.empty()) {
        __builtin_trap();  // a refusal always says why
    }
    return 0;
}
