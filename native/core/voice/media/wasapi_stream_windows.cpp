#include "voice/media/wasapi_stream_windows.hpp"

#include <algorithm>
#include <cstring>

#include "voice/media/wasapi_com_windows.hpp"

namespace svcpp::core::voice::wasapi {

namespace {

// 40 ms of shared buffer each way, as the PulseAudio backend asks of its server: room for the audio thread's
// scheduling hiccups, short for latency. The audio engine may round it up to its period.
constexpr REFERENCE_TIME kBufferDuration = 40 * 10'000;  // 100 ns units
// How long a Read or Write waits for the device's event before it calls the device stalled. A device signals every
// period (10 ms in shared mode); this only turns a device that stopped without a word into a failed call.
constexpr DWORD kStallMs = 500;
constexpr UINT32 kFrameFrames = static_cast<UINT32>(kDeviceFrameSamplesPerChannel);  // 480 sample frames per 10 ms

WAVEFORMATEX PipelineFormat() {
    WAVEFORMATEX format{};
    format.wFormatTag = WAVE_FORMAT_PCM;
    format.nChannels = kChannels;
    format.nSamplesPerSec = kSampleRate;
    format.wBitsPerSample = 16;
    format.nBlockAlign = static_cast<WORD>(kChannels * sizeof(int16_t));
    format.nAvgBytesPerSec = format.nSamplesPerSec * format.nBlockAlign;
    return format;
}

/** A failed call keeps the device's cadence: the audio thread gets its silence 10 ms later, it does not spin. */
bool FailPaced() {
    Sleep(kDeviceFrameMs);
    return false;
}

}  // namespace

// ---- the client ----

WasapiClient::~WasapiClient() { Close(); }

std::string WasapiClient::Open(IMMDevice *device, bool isCapture) {
    Close();
    HRESULT hr = device->Activate(__uuidof(IAudioClient), CLSCTX_ALL, nullptr,
                                  reinterpret_cast<void **>(client_.GetAddressOf()));
    if (FAILED(hr)) return Failure("cannot activate the device's audio client", hr);
    const WAVEFORMATEX format = PipelineFormat();
    const DWORD flags = AUDCLNT_STREAMFLAGS_EVENTCALLBACK | AUDCLNT_STREAMFLAGS_AUTOCONVERTPCM |
                        AUDCLNT_STREAMFLAGS_SRC_DEFAULT_QUALITY;
    hr = client_->Initialize(AUDCLNT_SHAREMODE_SHARED, flags, kBufferDuration, 0, &format, nullptr);
    if (FAILED(hr)) {
        Close();
        return Failure("cannot open the device in shared mode at 48 kHz stereo 16-bit", hr);
    }
    event_ = CreateEventW(nullptr, FALSE, FALSE, nullptr);
    if (!event_) {
        Close();
        return Failure("cannot create the stream's event", HRESULT_FROM_WIN32(GetLastError()));
    }
    if (FAILED(hr = client_->SetEventHandle(event_)) || FAILED(hr = client_->GetBufferSize(&bufferFrames_))) {
        Close();
        return Failure("cannot set up the event-driven stream", hr);
    }
    hr = isCapture
             ? client_->GetService(__uuidof(IAudioCaptureClient), reinterpret_cast<void **>(capture.GetAddressOf()))
             : client_->GetService(__uuidof(IAudioRenderClient), reinterpret_cast<void **>(render.GetAddressOf()));
    if (FAILED(hr)) {
        Close();
        return Failure(isCapture ? "no capture service" : "no render service", hr);
    }
    return {};
}

void WasapiClient::Close() {
    if (client_ && started_) client_->Stop();
    started_ = false;
    capture.Reset();
    render.Reset();
    client_.Reset();
    bufferFrames_ = 0;
    if (event_) CloseHandle(event_);
    event_ = nullptr;
}

bool WasapiClient::Start() {
    if (started_) return true;
    started_ = client_ && SUCCEEDED(client_->Start());
    return started_;
}

StreamTiming WasapiClient::Timing() const {
    StreamTiming timing;
    if (!client_) return timing;
    timing.bufferFrames = bufferFrames_;
    client_->GetDevicePeriod(&timing.devicePeriod, nullptr);
    client_->GetStreamLatency(&timing.streamLatency);
    return timing;
}

ComPtr<IMMDevice> FindDevice(IMMDeviceEnumerator *enumerator, std::string_view id, bool capture, std::string *error) {
    ComPtr<IMMDevice> device;
    const EDataFlow flow = capture ? eCapture : eRender;
    if (id.empty() || id == kDefaultAudioDeviceId) {
        // eConsole: the device Windows' sound settings call "default" (eCommunications is the separate
        // "default communication device", which follows it unless the user chose another).
        HRESULT hr = enumerator->GetDefaultAudioEndpoint(flow, eConsole, device.GetAddressOf());
        if (FAILED(hr)) {
            if (error) *error = Failure(capture ? "no default capture device" : "no default render device", hr);
            return nullptr;
        }
        return device;
    }
    const std::wstring wide = Wide(id);
    HRESULT hr = enumerator->GetDevice(wide.c_str(), device.GetAddressOf());
    ComPtr<IMMEndpoint> endpoint;
    EDataFlow actual = eAll;
    DWORD state = 0;
    if (FAILED(hr) || FAILED(device.As(&endpoint)) || FAILED(endpoint->GetDataFlow(&actual)) || actual != flow ||
        FAILED(device->GetState(&state)) || state != DEVICE_STATE_ACTIVE) {
        if (error)
            *error = "WASAPI: no active " + std::string(capture ? "capture" : "render") + " device " + std::string(id);
        return nullptr;
    }
    return device;
}

// ---- capture ----

bool WasapiCapture::ReopenDefault() {
    client_.Close();
    ComPtr<IMMDevice> device = FindDevice(enumerator_.Get(), kDefaultAudioDeviceId, true, nullptr);
    return device && client_.Open(device.Get(), true).empty();
}

bool WasapiCapture::Pull() {
    UINT32 packet = 0;
    HRESULT hr = client_.capture->GetNextPacketSize(&packet);
    while (SUCCEEDED(hr) && packet > 0) {
        BYTE *data = nullptr;
        UINT32 frames = 0;
        DWORD flags = 0;
        hr = client_.capture->GetBuffer(&data, &frames, &flags, nullptr, nullptr);
        if (FAILED(hr)) break;
        const auto *samples = reinterpret_cast<const int16_t *>(data);
        const bool silent = (flags & AUDCLNT_BUFFERFLAGS_SILENT) != 0;
        for (size_t i = 0; i < size_t{frames} * kChannels; ++i) {
            if (ringSize_ == ring_.size()) {  // full: drop the oldest sample
                ringStart_ = (ringStart_ + 1) % ring_.size();
                --ringSize_;
            }
            ring_[(ringStart_ + ringSize_) % ring_.size()] = silent ? int16_t{0} : samples[i];
            ++ringSize_;
        }
        client_.capture->ReleaseBuffer(frames);
        hr = client_.capture->GetNextPacketSize(&packet);
    }
    return SUCCEEDED(hr) || (hr == AUDCLNT_E_DEVICE_INVALIDATED && ReopenDefault());
}

bool WasapiCapture::Read(std::span<int16_t> frame) {
    JoinMtaForThisThread();
    std::fill(frame.begin(), frame.end(), int16_t{0});
    if (!client_.Client() && !ReopenDefault()) return FailPaced();
    while (ringSize_ < frame.size()) {
        if (!client_.Start()) return FailPaced();
        const bool signalled = WaitForSingleObject(client_.Event(), kStallMs) == WAIT_OBJECT_0;
        const size_t before = ringSize_;
        if (!Pull()) return FailPaced();
        if (!signalled && ringSize_ == before) return false;  // stalled: kStallMs already paced this call
    }
    for (auto &sample : frame) {
        sample = ring_[ringStart_];
        ringStart_ = (ringStart_ + 1) % ring_.size();
        --ringSize_;
    }
    return true;
}

// ---- render ----

bool WasapiPlayback::ReopenDefault() {
    client_.Close();
    ComPtr<IMMDevice> device = FindDevice(enumerator_.Get(), kDefaultAudioDeviceId, false, nullptr);
    return device && client_.Open(device.Get(), false).empty();
}

bool WasapiPlayback::Write(std::span<const int16_t> frame) {
    JoinMtaForThisThread();
    if (!client_.Client() && !ReopenDefault()) return FailPaced();
    const UINT32 frames = static_cast<UINT32>(frame.size() / kChannels);
    bool reopened = false;
    // A lost device is reopened once per call: a default that fails at once too is a failed call, not a loop.
    auto lost = [&](HRESULT hr) {
        return hr == AUDCLNT_E_DEVICE_INVALIDATED && !reopened && (reopened = true, ReopenDefault());
    };
    UINT32 padding = 0;
    while (true) {
        HRESULT hr = client_.Client()->GetCurrentPadding(&padding);
        if (FAILED(hr)) {
            if (lost(hr)) continue;
            return FailPaced();
        }
        if (client_.BufferFrames() >= padding + frames) break;
        if (!client_.Start()) return FailPaced();  // full before it played: start it, then wait for room
        if (WaitForSingleObject(client_.Event(), kStallMs) != WAIT_OBJECT_0) return false;  // stalled
    }
    BYTE *data = nullptr;
    HRESULT hr = client_.render->GetBuffer(frames, &data);
    if (FAILED(hr)) return lost(hr) ? false : FailPaced();  // reopened: this frame is dropped, the next one plays
    std::memcpy(data, frame.data(), size_t{frames} * kChannels * sizeof(int16_t));
    client_.render->ReleaseBuffer(frames, 0);
    // Started once two frames are queued, so the device does not begin by underrunning the first.
    if (padding + frames >= 2 * kFrameFrames && !client_.Start()) return FailPaced();
    return true;
}

}  // namespace svcpp::core::voice::wasapi
