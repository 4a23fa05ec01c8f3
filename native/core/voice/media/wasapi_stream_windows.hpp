// WASAPI capture and render streams (wasapi_stream_windows.cpp): one IAudioClient per stream in shared mode,
// event-driven (AUDCLNT_STREAMFLAGS_EVENTCALLBACK), opened at the pipeline format (48 kHz stereo s16) with
// AUTOCONVERTPCM | SRC_DEFAULT_QUALITY, so the audio engine (Windows' mix format is usually 32-bit float, and the
// device's rate whatever it is) converts and resamples and the engine always sees its own format.
//   Read   blocks on the client's event until 10 ms are captured (the streams are device-paced, like PulseAudio's);
//   Write  blocks until the render buffer has room for 10 ms.
// No allocation on the audio path: the capture side keeps a fixed ring, the render side copies into WASAPI's buffer.
// A device that goes away (AUDCLNT_E_DEVICE_INVALIDATED: unplugged, disabled) is replaced by the system's default
// device of the same direction, reopened on the audio thread by the call that saw the loss — the one place a stream
// allocates, and only then.
#pragma once
#include <windows.h>
#include <audioclient.h>
#include <mmdeviceapi.h>
#include <wrl/client.h>

#include <array>
#include <memory>
#include <string>

#include "voice/media/audio_backend.hpp"

namespace svcpp::core::voice::wasapi {

using Microsoft::WRL::ComPtr;

/** What a stream's client negotiated, for the backend's figures (tests print them; docs/platforms.md). */
struct StreamTiming {
    UINT32 bufferFrames = 0;           // the shared buffer WASAPI gave us
    REFERENCE_TIME devicePeriod = 0;   // 100 ns units: the engine's period, how often the event fires
    REFERENCE_TIME streamLatency = 0;  // 100 ns units: what the client reports beyond the buffer
};

/** One IAudioClient, initialised and started, with its event. Shared by both directions. */
class WasapiClient {
  public:
    ~WasapiClient();
    /** Empty on success, else why (the HRESULT named). */
    std::string Open(IMMDevice *device, bool capture);
    void Close();
    IAudioClient *Client() const { return client_.Get(); }
    HANDLE Event() const { return event_; }
    UINT32 BufferFrames() const { return bufferFrames_; }
    StreamTiming Timing() const;
    /** Started on the first read (capture) or once the first frames are queued (render). */
    bool Start();

    ComPtr<IAudioCaptureClient> capture;
    ComPtr<IAudioRenderClient> render;

  private:
    ComPtr<IAudioClient> client_;
    HANDLE event_ = nullptr;
    UINT32 bufferFrames_ = 0;
    bool started_ = false;
};

class WasapiCapture final : public AudioCaptureStream {
  public:
    explicit WasapiCapture(ComPtr<IMMDeviceEnumerator> enumerator) : enumerator_(std::move(enumerator)) {}
    std::string Open(IMMDevice *device) { return client_.Open(device, true); }
    bool Read(std::span<int16_t> frame) override;
    StreamTiming Timing() const { return client_.Timing(); }

  private:
    bool Pull();  // moves what WASAPI has captured into the ring; false on a device error
    bool ReopenDefault();

    ComPtr<IMMDeviceEnumerator> enumerator_;
    WasapiClient client_;
    // 0.5 s of audio: the engine reads every 10 ms, so only a stalled audio thread fills it (the oldest is dropped).
    std::array<int16_t, kSampleRate * kChannels / 2> ring_{};
    size_t ringStart_ = 0, ringSize_ = 0;
};

class WasapiPlayback final : public AudioPlaybackStream {
  public:
    explicit WasapiPlayback(ComPtr<IMMDeviceEnumerator> enumerator) : enumerator_(std::move(enumerator)) {}
    std::string Open(IMMDevice *device) { return client_.Open(device, false); }
    bool Write(std::span<const int16_t> frame) override;
    StreamTiming Timing() const { return client_.Timing(); }

  private:
    bool ReopenDefault();

    ComPtr<IMMDeviceEnumerator> enumerator_;
    WasapiClient client_;
};

/** The device of an id (UTF-8; "" or kDefaultAudioDeviceId = the default of the direction), or null. */
ComPtr<IMMDevice> FindDevice(IMMDeviceEnumerator *enumerator, std::string_view id, bool capture, std::string *error);

}  // namespace svcpp::core::voice::wasapi
