// AudioDevices: which devices exist and how to open one, for the voice engine (docs/voice.md "Devices").
//
// Ids the SDK accepts (SetInputDevice / SetOutputDevice):
//   "default" (or "")     the system default: PulseAudio's default when a Pulse server answers, else "null"
//   "null"                silence in, output discarded (paced by the engine's own 10 ms clock)
//   "file:<path>"         input: a 48 kHz PCM s16 mono/stereo WAV file played as the microphone (silence after its
//                         end); output: a WAV file (48 kHz stereo s16) that receives everything the call plays
//   a PulseAudio source/sink name as listed by GetInputDevices / GetOutputDevices
// Anything else is an unknown id. PulseAudio is loaded with dlopen on first use, so libsvcpp.so has no link-time
// dependency on a sound server.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "generated/values.hpp"
#include "voice/media/audio_backend.hpp"

namespace svcpp::core::voice {

inline constexpr const char *kNullDeviceId = "null";
inline constexpr const char *kFileDevicePrefix = "file:";

/** An open stream with the backend that made it (kept alive together). */
template <class Stream>
struct OpenedStream {
    std::unique_ptr<AudioBackend> backend;
    std::unique_ptr<Stream> stream;
    bool clockPaced = true;
};

class AudioDevices {
  public:
    std::vector<AudioDevice> Inputs();
    std::vector<AudioDevice> Outputs();
    /** What Inputs()/Outputs() would say about this id, plus the null and file: forms. */
    bool IsKnownInput(const std::string &id);
    bool IsKnownOutput(const std::string &id);
    /** The device an id stands for (the default resolved), for GetCurrent*Device. */
    AudioDevice DescribeInput(const std::string &id);
    AudioDevice DescribeOutput(const std::string &id);

    /** Opens a stream; on failure the stream is null and `error` says why (a file that cannot be read, …). */
    OpenedStream<AudioCaptureStream> OpenCapture(const std::string &id, std::string *error);
    OpenedStream<AudioPlaybackStream> OpenPlayback(const std::string &id, std::string *error);

    /** Pulse's device changes (only when a Pulse server answers); the callback runs on a backend thread. */
    void SetDeviceChangeCallback(AudioBackend::DeviceChangeCallback callback);

  private:
    /** The shared PulseAudio backend, tried once; null when no server answers. */
    AudioBackend *Pulse();
    static AudioDevice ToDevice(const AudioDeviceInfo &info);

    std::mutex mutex_;
    bool pulseTried_ = false;
    std::unique_ptr<AudioBackend> pulse_;
};

}  // namespace svcpp::core::voice
