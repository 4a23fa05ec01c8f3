// The WASAPI backend (Windows' own audio API, Vista on; the one the system's audio engine mixes for).
//   enumeration   IMMDeviceEnumerator: active endpoints per direction, ids (the endpoint id strings) as UTF-8,
//                 names from PKEY_Device_FriendlyName, "default" = the eConsole default
//   streams       wasapi_stream_windows.cpp: shared mode, event-driven, one IAudioClient per stream
//   changes       an IMMNotificationClient registered with the enumerator. Windows calls it on a thread of its own
//                 that must not block (nor call back into the enumerator), so it only flags the change; a notifier
//                 thread of ours re-enumerates and calls the application's callback, as the PulseAudio backend does.
#include <windows.h>
#include <mmdeviceapi.h>
#include <wrl/client.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "voice/media/audio_backend.hpp"
#include "voice/media/wasapi_com_windows.hpp"
#include "voice/media/wasapi_stream_windows.hpp"

namespace svcpp::core::voice {

namespace {

using namespace wasapi;

// PKEY_Device_FriendlyName (functiondiscoverykeys_devpkey.h), defined here: MinGW's header declares it for a GUID
// library it does not ship.
constexpr PROPERTYKEY kFriendlyName{{0xa45c254e, 0xdf1c, 0x4efd, {0x80, 0x20, 0x67, 0xd1, 0x46, 0xa8, 0x50, 0xe0}}, 14};

/** The part of the backend the notification client reaches: "something changed". */
class ChangeSink {
  public:
    virtual void DevicesChanged() = 0;

  protected:
    ~ChangeSink() = default;
};

class NotificationClient final : public IMMNotificationClient {
  public:
    explicit NotificationClient(ChangeSink &sink) : sink_(sink) {}

    // IUnknown: the enumerator holds a reference while registered; the backend holds the first.
    ULONG STDMETHODCALLTYPE AddRef() override { return InterlockedIncrement(&refs_); }
    ULONG STDMETHODCALLTYPE Release() override {
        const ULONG left = InterlockedDecrement(&refs_);
        if (left == 0) delete this;
        return left;
    }
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override {
        if (iid == __uuidof(IUnknown) || iid == __uuidof(IMMNotificationClient)) {
            *out = static_cast<IMMNotificationClient *>(this);
            AddRef();
            return S_OK;
        }
        *out = nullptr;
        return E_NOINTERFACE;
    }

    HRESULT STDMETHODCALLTYPE OnDeviceStateChanged(LPCWSTR, DWORD) override { return Changed(); }
    HRESULT STDMETHODCALLTYPE OnDeviceAdded(LPCWSTR) override { return Changed(); }
    HRESULT STDMETHODCALLTYPE OnDeviceRemoved(LPCWSTR) override { return Changed(); }
    HRESULT STDMETHODCALLTYPE OnDefaultDeviceChanged(EDataFlow, ERole role, LPCWSTR) override {
        // Windows reports each new default once per role (console, multimedia, communications): one change.
        return role == eConsole ? Changed() : S_OK;
    }
    // A property (volume, format, name) is not a device appearing or going.
    HRESULT STDMETHODCALLTYPE OnPropertyValueChanged(LPCWSTR, const PROPERTYKEY) override { return S_OK; }

    /** After Unregister returned: Windows calls no more, and the sink may go. */
    void Detach() {
        std::lock_guard lock(mutex_);
        attached_ = false;
    }

  private:
    ~NotificationClient() = default;
    HRESULT Changed() {
        std::lock_guard lock(mutex_);
        if (attached_) sink_.DevicesChanged();
        return S_OK;
    }

    ChangeSink &sink_;
    LONG refs_ = 1;
    std::mutex mutex_;
    bool attached_ = true;
};

class WasapiAudioBackend final : public AudioBackend, private ChangeSink {
  public:
    ~WasapiAudioBackend() override {
        if (notification_) {
            ComScope com;
            enumerator_->UnregisterEndpointNotificationCallback(notification_);
            notification_->Detach();
            notification_->Release();
        }
        {
            std::lock_guard lock(notifyMutex_);
            stopping_ = true;
        }
        notifyCv_.notify_all();
        if (notifier_.joinable()) notifier_.join();
        ComScope com;
        enumerator_.Reset();
    }

    bool Create(std::string *error) {
        ComScope com;
        HRESULT hr = CoCreateInstance(__uuidof(MMDeviceEnumerator), nullptr, CLSCTX_ALL, __uuidof(IMMDeviceEnumerator),
                                      reinterpret_cast<void **>(enumerator_.GetAddressOf()));
        if (FAILED(hr)) return Fail(error, Failure("cannot create the device enumerator", hr));
        // The notifier keeps the process's MTA alive for the backend's life, whatever the callers' threads are.
        notifier_ = std::thread([this] { NotifyLoop(); });
        notification_ = new NotificationClient(*this);
        hr = enumerator_->RegisterEndpointNotificationCallback(notification_);
        if (FAILED(hr)) {
            notification_->Release();
            notification_ = nullptr;
            return Fail(error, Failure("cannot register for device changes", hr));
        }
        return true;
    }

    std::string_view Name() const override { return "wasapi"; }
    bool IsClockPaced() const override { return false; }

    std::vector<AudioDeviceInfo> InputDevices() override { return Enumerate(eCapture); }
    std::vector<AudioDeviceInfo> OutputDevices() override { return Enumerate(eRender); }

    std::unique_ptr<AudioCaptureStream> OpenCapture(std::string_view id) override {
        ComScope com;
        ComPtr<IMMDevice> device = FindDevice(enumerator_.Get(), id, true, nullptr);
        if (!device) return nullptr;
        auto stream = std::make_unique<WasapiCapture>(enumerator_);
        return stream->Open(device.Get()).empty() ? std::move(stream) : nullptr;
    }

    std::unique_ptr<AudioPlaybackStream> OpenPlayback(std::string_view id) override {
        ComScope com;
        ComPtr<IMMDevice> device = FindDevice(enumerator_.Get(), id, false, nullptr);
        if (!device) return nullptr;
        auto stream = std::make_unique<WasapiPlayback>(enumerator_);
        return stream->Open(device.Get()).empty() ? std::move(stream) : nullptr;
    }

    void SetDeviceChangeCallback(DeviceChangeCallback callback) override {
        std::lock_guard lock(notifyMutex_);
        callback_ = std::move(callback);
    }

  private:
    static bool Fail(std::string *error, std::string message) {
        if (error) *error = std::move(message);
        return false;
    }

    static std::string DeviceId(IMMDevice *device) {
        LPWSTR id = nullptr;
        if (FAILED(device->GetId(&id))) return {};
        std::string out = Utf8(id);
        CoTaskMemFree(id);
        return out;
    }

    static std::string FriendlyName(IMMDevice *device) {
        ComPtr<IPropertyStore> properties;
        if (FAILED(device->OpenPropertyStore(STGM_READ, properties.GetAddressOf()))) return {};
        PROPVARIANT value;
        PropVariantInit(&value);
        std::string name;
        if (SUCCEEDED(properties->GetValue(kFriendlyName, &value)) && value.vt == VT_LPWSTR) name = Utf8(value.pwszVal);
        PropVariantClear(&value);
        return name;
    }

    std::vector<AudioDeviceInfo> Enumerate(EDataFlow flow) {
        ComScope com;
        std::vector<AudioDeviceInfo> devices;
        std::string defaultId;
        ComPtr<IMMDevice> fallback;
        if (SUCCEEDED(enumerator_->GetDefaultAudioEndpoint(flow, eConsole, fallback.GetAddressOf())))
            defaultId = DeviceId(fallback.Get());
        ComPtr<IMMDeviceCollection> collection;
        UINT count = 0;
        if (FAILED(enumerator_->EnumAudioEndpoints(flow, DEVICE_STATE_ACTIVE, collection.GetAddressOf())) ||
            FAILED(collection->GetCount(&count)))
            return devices;  // the audio service went away: no devices, as PulseAudio's dead context gives
        for (UINT i = 0; i < count; ++i) {
            ComPtr<IMMDevice> device;
            if (FAILED(collection->Item(i, device.GetAddressOf()))) continue;
            AudioDeviceInfo info;
            info.id = DeviceId(device.Get());
            if (info.id.empty()) continue;
            info.name = FriendlyName(device.Get());
            if (info.name.empty()) info.name = info.id;
            info.isDefault = info.id == defaultId;
            devices.push_back(std::move(info));
        }
        return devices;
    }

    // On Windows' notification thread: only flag it.
    void DevicesChanged() override {
        {
            std::lock_guard lock(notifyMutex_);
            pendingChange_ = true;
        }
        notifyCv_.notify_all();
    }

    void NotifyLoop() {
        JoinMtaForThisThread();
        std::unique_lock lock(notifyMutex_);
        while (true) {
            notifyCv_.wait(lock, [this] { return stopping_ || pendingChange_; });
            if (stopping_) return;
            pendingChange_ = false;
            if (!callback_) continue;
            lock.unlock();
            auto inputs = InputDevices();
            auto outputs = OutputDevices();
            lock.lock();
            if (stopping_) return;
            DeviceChangeCallback callback = callback_;  // called without our lock: it may replace itself
            lock.unlock();
            if (callback) callback(inputs, outputs);
            lock.lock();
        }
    }

    ComPtr<IMMDeviceEnumerator> enumerator_;
    NotificationClient *notification_ = nullptr;

    std::mutex notifyMutex_;
    std::condition_variable notifyCv_;
    bool stopping_ = false;
    bool pendingChange_ = false;
    DeviceChangeCallback callback_;
    std::thread notifier_;
};

}  // namespace

std::unique_ptr<AudioBackend> CreateWasapiAudioBackend(std::string *error) {
    auto backend = std::make_unique<WasapiAudioBackend>();
    if (!backend->Create(error)) return nullptr;
    return backend;
}

}  // namespace svcpp::core::voice
