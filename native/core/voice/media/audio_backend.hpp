// AudioBackend: where the voice engine's audio comes from and goes to. Every backend opens devices at the pipeline
// format (48 kHz, stereo s16 interleaved, 10 ms frames); the sound server (PulseAudio, PipeWire's Pulse server,
// Windows' audio engine) converts and resamples when the hardware differs.
//
// Implementations (factories below):
//   Null        silence in, output discarded. Clock-paced: the engine's 10 ms clock (AudioClock) drives it.
//   WAV file    reads a WAV as the microphone (silence after its end, or looped), writes what is played to a WAV.
//               Clock-paced. CI and headless servers exercise the whole audio path with it.
//   PulseAudio  libpulse.so.0 / libpulse-simple.so.0 loaded with dlopen at run time: libsvcpp.so has no link-time
//               dependency on a sound server. Device-paced: Read blocks until the device has captured 10 ms.
//   WASAPI      Windows (wasapi_*_windows.cpp): shared mode, event-driven, system DLLs only. Device-paced.
//
// Threads: enumeration and Open* on any thread (they may block briefly on the sound server); a stream is used by one
// thread at a time (the audio thread). The device-change callback runs on a backend thread: keep it short.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voice/media/audio_format.hpp"

namespace svcpp::core::voice {

struct AudioDeviceInfo {
    std::string id;    // stable within the backend; pass to Open*
    std::string name;  // human-readable
    bool isDefault = false;
    bool operator==(const AudioDeviceInfo &) const = default;
};

/** The id that means "the system default device" (Client::GetDefaultAudioDeviceId); an empty id means the same. */
inline constexpr std::string_view kDefaultAudioDeviceId = "default";

class AudioCaptureStream {
  public:
    virtual ~AudioCaptureStream() = default;
    /**
     * Fills `frame` with exactly one 10 ms frame (kDeviceFrameSamples). Device-paced backends block until it is
     * captured; clock-paced ones return at once. False when the device failed or went away (the frame is silence).
     */
    virtual bool Read(std::span<int16_t> frame) = 0;
};

class AudioPlaybackStream {
  public:
    virtual ~AudioPlaybackStream() = default;
    /** Queues one 10 ms frame (kDeviceFrameSamples) for playback. False when the device failed or went away. */
    virtual bool Write(std::span<const int16_t> frame) = 0;
};

class AudioBackend {
  public:
    using DeviceChangeCallback =
        std::function<void(const std::vector<AudioDeviceInfo> &inputs, const std::vector<AudioDeviceInfo> &outputs)>;

    virtual ~AudioBackend() = default;

    /** "null", "wav", "pulseaudio", "wasapi". */
    virtual std::string_view Name() const = 0;
    /** True when streams do not pace themselves and the engine must run its own 10 ms clock (AudioClock). */
    virtual bool IsClockPaced() const = 0;

    virtual std::vector<AudioDeviceInfo> InputDevices() = 0;
    virtual std::vector<AudioDeviceInfo> OutputDevices() = 0;

    /** Opens a device by id (kDefaultAudioDeviceId or "" = default). Null for an unknown id or a device that fails. */
    virtual std::unique_ptr<AudioCaptureStream> OpenCapture(std::string_view deviceId) = 0;
    virtual std::unique_ptr<AudioPlaybackStream> OpenPlayback(std::string_view deviceId) = 0;

    /**
     * Called with the new device lists whenever a device appears or goes, or the default changes. Replaces any
     * earlier callback; an empty function stops notifications. Backends whose devices never change never call it.
     */
    virtual void SetDeviceChangeCallback(DeviceChangeCallback callback) = 0;
};

/** Silence in, output discarded; one input and one output device, both "default". */
std::unique_ptr<AudioBackend> CreateNullAudioBackend();

struct WavFileBackendOptions {
    std::string inputPath;   // WAV read as the microphone; empty = silence. 48 kHz, 1 or 2 channels, PCM s16.
    bool loopInput = false;  // start again at the end instead of continuing with silence
    std::string outputPath;  // WAV written with what is played (48 kHz stereo s16); empty = discard
};
/**
 * The WAV file device. Null (with `error` set) when the input file cannot be read or is not 48 kHz PCM s16 mono or
 * stereo, or the output file cannot be created. The output file is finalised (header sizes) when its stream closes.
 */
std::unique_ptr<AudioBackend> CreateWavFileAudioBackend(const WavFileBackendOptions &options,
                                                        std::string *error = nullptr);

/**
 * PulseAudio through dlopen. Null (with `error` set) when libpulse cannot be loaded or no server answers
 * (PULSE_SERVER and the usual defaults apply). Device ids are Pulse sink/source names; "default" follows the
 * server's default. Monitor sources (`*.monitor`) are listed as inputs too.
 */
std::unique_ptr<AudioBackend> CreatePulseAudioBackend(std::string *error = nullptr);

/**
 * WASAPI (Windows only). Null (with `error` set) when the audio service's device enumerator cannot be created. Device
 * ids are the endpoint id strings (UTF-8); "default" is the console default of each direction and a stream opened on it
 * follows no later change of default, but one whose device goes away reopens the new default. Device lists and
 * default changes come through IMMNotificationClient.
 */
std::unique_ptr<AudioBackend> CreateWasapiAudioBackend(std::string *error = nullptr);

/**
 * The engine's 10 ms clock for clock-paced backends (null, WAV file): WaitNextTick() sleeps until the next multiple
 * of the period after Start(), so the cadence does not drift with processing time. A caller that fell behind (the
 * thread was descheduled) gets the missed ticks at once and runs them back to back, so a file device's timeline stays
 * the wall clock's — second t of a recording is what was heard at second t, which latency and timed-phase
 * measurements rely on; the burst is harmless for devices that are files. Further behind than maxCatchUpTicks (a
 * thread that cannot keep up, e.g. under a sanitizer), it skips to now instead, and the timeline shifts.
 */
class AudioClock {
  public:
    static constexpr int kDefaultMaxCatchUpTicks = 50;  // 0.5 s of 10 ms ticks

    explicit AudioClock(std::chrono::microseconds period = std::chrono::milliseconds(kDeviceFrameMs),
                        int maxCatchUpTicks = kDefaultMaxCatchUpTicks)
        : period_(period), maxCatchUpTicks_(maxCatchUpTicks) {}
    void Start();
    /** Sleeps until the next tick (not at all while catching up); returns how many ticks were skipped (usually 0). */
    int WaitNextTick();

  private:
    std::chrono::microseconds period_;
    int maxCatchUpTicks_;
    std::chrono::steady_clock::time_point next_{};
};

}  // namespace svcpp::core::voice
