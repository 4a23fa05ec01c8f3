#include "voice/media/system_audio_backend.hpp"

namespace svcpp::core::voice {

// WASAPI comes next (issue 42); until then the file and null devices are what a Windows call can use.
std::unique_ptr<AudioBackend> CreateSystemAudioBackend(std::string *error) {
    if (error) *error = "no system audio backend on Windows yet (WASAPI is not built): use the file or null devices";
    return nullptr;
}

}  // namespace svcpp::core::voice
