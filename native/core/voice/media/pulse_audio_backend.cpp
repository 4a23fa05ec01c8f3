// The PulseAudio backend (also serves PipeWire desktops through pipewire-pulse).
//   enumeration, defaults and change events: the asynchronous API on a pa_threaded_mainloop (one context per backend)
//   capture and playback: pa_simple streams, whose blocking read/write pace the audio thread (device-paced)
// Change events arrive on the mainloop thread, which must not block on the server; a notifier thread of ours
// re-enumerates and calls the application's callback.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "voice/media/audio_backend.hpp"
#include "voice/media/pulse_library.hpp"

namespace svcpp::core::voice {

namespace {

constexpr pa_sample_spec kSpec{PA_SAMPLE_S16LE, static_cast<uint32_t>(kSampleRate), static_cast<uint8_t>(kChannels)};
constexpr uint32_t kFrameBytes = kDeviceFrameSamples * sizeof(int16_t);
constexpr const char *kAppName = "svcpp";

bool IsDefaultId(std::string_view id) { return id.empty() || id == kDefaultAudioDeviceId; }

class PulseCapture final : public AudioCaptureStream {
  public:
    PulseCapture(const PulseLibrary &pa, pa_simple *s) : pa_(pa), s_(s) {}
    ~PulseCapture() override { pa_.pa_simple_free(s_); }
    bool Read(std::span<int16_t> frame) override {
        int error = 0;
        if (pa_.pa_simple_read(s_, frame.data(), frame.size_bytes(), &error) < 0) {
            std::fill(frame.begin(), frame.end(), int16_t{0});
            return false;
        }
        return true;
    }

  private:
    const PulseLibrary &pa_;
    pa_simple *s_;
};

class PulsePlayback final : public AudioPlaybackStream {
  public:
    PulsePlayback(const PulseLibrary &pa, pa_simple *s) : pa_(pa), s_(s) {}
    ~PulsePlayback() override { pa_.pa_simple_free(s_); }
    bool Write(std::span<const int16_t> frame) override {
        int error = 0;
        return pa_.pa_simple_write(s_, frame.data(), frame.size_bytes(), &error) >= 0;
    }

  private:
    const PulseLibrary &pa_;
    pa_simple *s_;
};

class PulseAudioBackend final : public AudioBackend {
  public:
    explicit PulseAudioBackend(const PulseLibrary &pa) : pa_(pa) {}

    ~PulseAudioBackend() override {
        {
            std::lock_guard lock(notifyMutex_);
            stopping_ = true;
        }
        notifyCv_.notify_all();
        if (notifier_.joinable()) notifier_.join();
        if (mainloop_) {
            pa_.pa_threaded_mainloop_stop(mainloop_);  // joins the mainloop thread: no callback runs after this
            if (context_) {
                pa_.pa_context_disconnect(context_);
                pa_.pa_context_unref(context_);
            }
            pa_.pa_threaded_mainloop_free(mainloop_);
        }
    }

    bool Connect(std::string *error) {
        mainloop_ = pa_.pa_threaded_mainloop_new();
        if (!mainloop_) return Fail(error, "PulseAudio: cannot create a mainloop");
        context_ = pa_.pa_context_new(pa_.pa_threaded_mainloop_get_api(mainloop_), kAppName);
        if (!context_) return Fail(error, "PulseAudio: cannot create a context");
        pa_.pa_context_set_state_callback(context_, &PulseAudioBackend::OnState, this);
        if (pa_.pa_context_connect(context_, nullptr, PA_CONTEXT_NOFLAGS, nullptr) < 0)
            return Fail(error, std::string("PulseAudio: ") + pa_.pa_strerror(pa_.pa_context_errno(context_)));
        if (pa_.pa_threaded_mainloop_start(mainloop_) < 0) return Fail(error, "PulseAudio: cannot start the mainloop");
        pa_.pa_threaded_mainloop_lock(mainloop_);
        pa_context_state_t state;
        while ((state = pa_.pa_context_get_state(context_)) != PA_CONTEXT_READY && PA_CONTEXT_IS_GOOD(state))
            pa_.pa_threaded_mainloop_wait(mainloop_);
        bool ready = state == PA_CONTEXT_READY;
        std::string why = ready ? "" : pa_.pa_strerror(pa_.pa_context_errno(context_));
        if (ready) {
            pa_.pa_context_set_subscribe_callback(context_, &PulseAudioBackend::OnSubscription, this);
            auto mask = static_cast<pa_subscription_mask_t>(PA_SUBSCRIPTION_MASK_SINK | PA_SUBSCRIPTION_MASK_SOURCE |
                                                            PA_SUBSCRIPTION_MASK_SERVER);
            // Waited for: a device that appears right after Create would otherwise go unreported while the server
            // has not yet registered the subscription.
            if (pa_operation *op = pa_.pa_context_subscribe(context_, mask, &PulseAudioBackend::OnSubscribed, this)) {
                while (pa_.pa_operation_get_state(op) == PA_OPERATION_RUNNING) pa_.pa_threaded_mainloop_wait(mainloop_);
                pa_.pa_operation_unref(op);
            }
        }
        pa_.pa_threaded_mainloop_unlock(mainloop_);
        if (!ready) return Fail(error, "PulseAudio: cannot connect to the server: " + why);
        notifier_ = std::thread([this] { NotifyLoop(); });
        return true;
    }

    std::string_view Name() const override { return "pulseaudio"; }
    bool IsClockPaced() const override { return false; }

    std::vector<AudioDeviceInfo> InputDevices() override { return Enumerate(true); }
    std::vector<AudioDeviceInfo> OutputDevices() override { return Enumerate(false); }

    std::unique_ptr<AudioCaptureStream> OpenCapture(std::string_view id) override {
        if (!IsDefaultId(id) && !Has(InputDevices(), id)) return nullptr;
        // fragsize = one 10 ms frame: the server hands us audio as soon as a frame is captured.
        pa_buffer_attr attr{static_cast<uint32_t>(-1), static_cast<uint32_t>(-1), static_cast<uint32_t>(-1),
                            static_cast<uint32_t>(-1), kFrameBytes};
        pa_simple *s = Open(PA_STREAM_RECORD, id, "voice capture", attr);
        return s ? std::make_unique<PulseCapture>(pa_, s) : nullptr;
    }

    std::unique_ptr<AudioPlaybackStream> OpenPlayback(std::string_view id) override {
        if (!IsDefaultId(id) && !Has(OutputDevices(), id)) return nullptr;
        // 40 ms target buffer: enough to ride out scheduling hiccups of the audio thread, short for latency.
        pa_buffer_attr attr{static_cast<uint32_t>(-1), 4 * kFrameBytes, static_cast<uint32_t>(-1), kFrameBytes,
                            static_cast<uint32_t>(-1)};
        pa_simple *s = Open(PA_STREAM_PLAYBACK, id, "voice playback", attr);
        return s ? std::make_unique<PulsePlayback>(pa_, s) : nullptr;
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

    static bool Has(const std::vector<AudioDeviceInfo> &devices, std::string_view id) {
        for (const auto &d : devices)
            if (d.id == id) return true;
        return false;
    }

    pa_simple *Open(pa_stream_direction_t direction, std::string_view id, const char *streamName,
                    const pa_buffer_attr &attr) {
        std::string device(id);
        int error = 0;
        return pa_.pa_simple_new(nullptr, kAppName, direction, IsDefaultId(id) ? nullptr : device.c_str(), streamName,
                                 &kSpec, nullptr, &attr, &error);
    }

    // ---- enumeration: issue the operation under the mainloop lock and wait for its list to end ----
    struct Listing {
        PulseAudioBackend *self;
        std::vector<AudioDeviceInfo> devices;
        std::string defaultName;
        bool done = false;
        bool wantSource = false;
    };

    std::vector<AudioDeviceInfo> Enumerate(bool inputs) {
        Listing listing{this, {}, {}, false};
        pa_.pa_threaded_mainloop_lock(mainloop_);
        listing.wantSource = inputs;
        Wait(pa_.pa_context_get_server_info(context_, &PulseAudioBackend::OnServerInfo, &listing), listing);
        listing.done = false;
        if (inputs)
            Wait(pa_.pa_context_get_source_info_list(context_, &PulseAudioBackend::OnDevice<pa_source_info>, &listing),
                 listing);
        else
            Wait(pa_.pa_context_get_sink_info_list(context_, &PulseAudioBackend::OnDevice<pa_sink_info>, &listing),
                 listing);
        pa_.pa_threaded_mainloop_unlock(mainloop_);
        for (auto &d : listing.devices) d.isDefault = d.id == listing.defaultName;
        return std::move(listing.devices);
    }

    void Wait(pa_operation *op, Listing &listing) {
        if (!op) return;  // the context died: an empty list
        while (!listing.done && pa_.pa_operation_get_state(op) == PA_OPERATION_RUNNING)
            pa_.pa_threaded_mainloop_wait(mainloop_);
        pa_.pa_operation_unref(op);
    }

    static void OnServerInfo(pa_context *, const pa_server_info *info, void *user) {
        auto *listing = static_cast<Listing *>(user);
        if (info) {
            const char *name = listing->wantSource ? info->default_source_name : info->default_sink_name;
            listing->defaultName = name ? name : "";
        }
        listing->done = true;
        listing->self->pa_.pa_threaded_mainloop_signal(listing->self->mainloop_, 0);
    }

    // pa_sink_info and pa_source_info both start with name and description; one callback serves both lists.
    template <typename Info>
    static void OnDevice(pa_context *, const Info *info, int eol, void *user) {
        auto *listing = static_cast<Listing *>(user);
        if (eol == 0 && info)
            listing->devices.push_back({info->name, info->description ? info->description : info->name, false});
        if (eol != 0) {
            listing->done = true;
            listing->self->pa_.pa_threaded_mainloop_signal(listing->self->mainloop_, 0);
        }
    }

    static void OnState(pa_context *, void *user) {
        auto *self = static_cast<PulseAudioBackend *>(user);
        self->pa_.pa_threaded_mainloop_signal(self->mainloop_, 0);
    }

    static void OnSubscribed(pa_context *, int, void *user) {
        auto *self = static_cast<PulseAudioBackend *>(user);
        self->pa_.pa_threaded_mainloop_signal(self->mainloop_, 0);
    }

    // On the mainloop thread: only flag the change; the notifier thread does the (blocking) re-enumeration.
    static void OnSubscription(pa_context *, pa_subscription_event_type_t type, uint32_t, void *user) {
        auto *self = static_cast<PulseAudioBackend *>(user);
        unsigned kind = type & PA_SUBSCRIPTION_EVENT_TYPE_MASK;
        unsigned facility = type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK;
        // Sinks/sources appearing or going, and server changes (the default device); property changes of a
        // device (volume, state) are not device changes.
        if (facility != PA_SUBSCRIPTION_EVENT_SERVER && kind == PA_SUBSCRIPTION_EVENT_CHANGE) return;
        {
            std::lock_guard lock(self->notifyMutex_);
            self->pendingChange_ = true;
        }
        self->notifyCv_.notify_all();
    }

    void NotifyLoop() {
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

    const PulseLibrary &pa_;
    pa_threaded_mainloop *mainloop_ = nullptr;
    pa_context *context_ = nullptr;

    std::mutex notifyMutex_;
    std::condition_variable notifyCv_;
    bool stopping_ = false;
    bool pendingChange_ = false;
    DeviceChangeCallback callback_;
    std::thread notifier_;
};

}  // namespace

std::unique_ptr<AudioBackend> CreatePulseAudioBackend(std::string *error) {
    const PulseLibrary *pa = LoadPulseLibrary(error);
    if (!pa) return nullptr;
    auto backend = std::make_unique<PulseAudioBackend>(*pa);
    if (!backend->Connect(error)) return nullptr;
    return backend;
}

}  // namespace svcpp::core::voice
