// AudioEngine: the client's real-time audio thread (Client::Thread::Voice, "svcpp-voice") and its devices.
//
// Every 10 ms (the device paces it, or the engine's own clock for the null and file devices):
//   input device → input volume → level (no-audio-input detection) → audio processing (AEC/NS/AGC, when built in)
//   → each call's send path (CallMedia::SendFrame)
//   each call's receive path (CallMedia::MixReceived) → mixer → output volume → audio processing far end → output
// The thread runs while at least one call has media; devices are opened when it starts and reopened when the
// application selects another one. Rules on this thread: no blocking other than the device, no allocation in the
// steady state, no svcpp calls from the application's audio callbacks.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "threads/sdk_threads.hpp"
#include "voice/audio_devices.hpp"
#include "voice/media/audio_processor.hpp"
#include "voice/media/levels.hpp"
#include "voice/media/mixer.hpp"

namespace svcpp::core::voice {

class CallMedia;

struct AudioEngineEvents {
    std::function<void(bool inputDetected)> noAudioInput;     // audio thread
    std::function<void(int severity, std::string line)> log;  // any engine thread
};

class AudioEngine {
  public:
    AudioEngine(std::shared_ptr<AudioDevices> devices, std::shared_ptr<SdkThreads> threads, AudioEngineEvents events);
    ~AudioEngine();  // stops the thread
    AudioEngine(const AudioEngine &) = delete;
    AudioEngine &operator=(const AudioEngine &) = delete;

    /** A call's media starts taking part (the thread starts with the first). Any thread. */
    void Attach(std::shared_ptr<CallMedia> media);
    /** A call's media stops taking part (the thread stops after the last; devices close, WAV files are finalised). */
    void Detach(const CallMedia *media);
    /** Stops the thread now whatever is attached (client teardown). */
    void Shutdown();

    // Settings: any thread, applied from the next frame.
    void SelectInput(std::string id);
    void SelectOutput(std::string id);
    std::string InputId() const;
    std::string OutputId() const;
    InputVolume &Input() { return inputVolume_; }
    Mixer &Output() { return mixer_; }
    NoAudioInputDetector &NoAudioInput() { return noAudioInput_; }
    void SetProcessing(const AudioProcessingSettings &settings);
    AudioProcessingSettings Processing() const;
    /** Writes what the microphone captured and what was played to <dir>/aec-dump-{input,output}.wav while on. */
    void SetAecDump(bool on, std::string dir);

    bool Running() const { return !stop_.load() && FramesProcessed() > 0; }
    uint64_t FramesProcessed() const { return frames_.load(); }

  private:
    void Run();
    void StopThreadLocked();  // with lifecycle_ held

    std::shared_ptr<AudioDevices> devices_;
    std::shared_ptr<SdkThreads> threads_;  // the audio thread enters it as the Voice thread
    AudioEngineEvents events_;

    std::mutex lifecycle_;      // serialises starting and stopping the thread (held across the join)
    mutable std::mutex mutex_;  // guards calls_, ids, processing settings, dump settings (the thread reads them)
    std::vector<std::shared_ptr<CallMedia>> calls_;
    std::string inputId_ = "default";
    std::string outputId_ = "default";
    AudioProcessingSettings processing_;
    bool aecDump_ = false;
    std::string aecDumpDir_;
    std::thread thread_;

    std::atomic<bool> stop_{true};
    std::atomic<uint64_t> devicesVersion_{0};     // bumped by SelectInput/SelectOutput/SetAecDump
    std::atomic<uint64_t> callsVersion_{0};       // bumped by Attach/Detach
    std::atomic<uint64_t> processingVersion_{0};  // bumped by SetProcessing
    std::atomic<uint64_t> frames_{0};

    InputVolume inputVolume_;
    Mixer mixer_;
    NoAudioInputDetector noAudioInput_;
};

}  // namespace svcpp::core::voice
