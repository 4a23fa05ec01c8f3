#include "voice/media/system_audio_backend.hpp"

namespace svcpp::core::voice {

std::unique_ptr<AudioBackend> CreateSystemAudioBackend(std::string *error) { return CreateWasapiAudioBackend(error); }

}  // namespace svcpp::core::voice
