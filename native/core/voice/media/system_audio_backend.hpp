// The system's audio devices, what "default" and listed device ids open (voice/audio_devices.cpp): PulseAudio on Linux
// (system_audio_backend_linux.cpp); none yet on Windows (system_audio_backend_windows.cpp: null with `error` set, so
// "default" is the null device there until the WASAPI backend lands).
#pragma once
#include <memory>
#include <string>

#include "voice/media/audio_backend.hpp"

namespace svcpp::core::voice {

std::unique_ptr<AudioBackend> CreateSystemAudioBackend(std::string *error = nullptr);

}  // namespace svcpp::core::voice
