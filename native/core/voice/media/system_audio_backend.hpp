// The system's audio devices, what "default" and listed device ids open (voice/audio_devices.cpp): PulseAudio on Linux
// (system_audio_backend_linux.cpp), WASAPI on Windows (system_audio_backend_windows.cpp). Null with `error` set when
// the system has no audio service to talk to: "default" is then the null device.
#pragma once
#include <memory>
#include <string>

#include "voice/media/audio_backend.hpp"

namespace svcpp::core::voice {

std::unique_ptr<AudioBackend> CreateSystemAudioBackend(std::string *error = nullptr);

}  // namespace svcpp::core::voice
