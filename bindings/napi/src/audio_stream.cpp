// Audio callbacks for JavaScript (docs/voice.md "Audio callbacks"): Client_StartCallWithAudioStream.
//
// The C audio callbacks run on the SDK's Voice thread every 10 ms and must never wait for JavaScript. Here they
// copy each frame into a bounded ring of preallocated frames (drop-oldest when it is full; a frame is also dropped
// when JavaScript holds the ring's lock at that instant — the Voice thread only ever try-locks) and wake the JS
// thread through a thread-safe function, at most once per drain. The JS thread then hands each frame to the
// listener as a fresh Int16Array. JavaScript therefore observes audio; changing samples in place and outShouldMute
// stay with C and C++ callers.
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "addon.hpp"
#include "client_pump.hpp"
#include "handles.hpp"

namespace svcpp_node {

namespace {

constexpr size_t kFrameSamples = 960;  // 10 ms, 48 kHz, stereo

struct AudioFrame {
    uint64_t userId = 0;  // 0 = captured (our microphone)
    size_t samples = 0;
    std::array<int16_t, kFrameSamples> pcm{};
};

struct AudioStream {
    explicit AudioStream(size_t capacity) : ring(capacity) {}
    ~AudioStream() {
        if (tsfn) napi_release_threadsafe_function(tsfn, napi_tsfn_abort);
    }

    // Voice thread.
    void Push(uint64_t userId, const int16_t *pcm, size_t samples) {
        std::unique_lock lock(mutex, std::try_to_lock);
        if (!lock) {
            dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        if (count == ring.size()) {  // full: the oldest frame goes
            head = (head + 1) % ring.size();
            --count;
            dropped.fetch_add(1, std::memory_order_relaxed);
        }
        AudioFrame &frame = ring[(head + count) % ring.size()];
        frame.userId = userId;
        frame.samples = samples < kFrameSamples ? samples : kFrameSamples;
        std::copy(pcm, pcm + frame.samples, frame.pcm.begin());
        ++count;
        lock.unlock();
        if (!signaled.exchange(true)) napi_call_threadsafe_function(tsfn, nullptr, napi_tsfn_nonblocking);
    }

    // JS thread.
    bool Pop(AudioFrame &out) {
        std::lock_guard lock(mutex);
        if (count == 0) return false;
        out = ring[head];
        head = (head + 1) % ring.size();
        --count;
        return true;
    }

    std::mutex mutex;
    std::vector<AudioFrame> ring;
    size_t head = 0;
    size_t count = 0;
    std::atomic<bool> signaled{false};
    std::atomic<uint64_t> dropped{0};
    napi_threadsafe_function tsfn = nullptr;
    Napi::FunctionReference onReceived;  // (userId: bigint, samples: Int16Array) => void
    Napi::FunctionReference onCaptured;  // (samples: Int16Array) => void
};

/** Each C registration owns one of these; the stream goes when both are freed (on a thread inside an svcpp call). */
using StreamRef = std::shared_ptr<AudioStream>;

void SVCPP_CALL FreeStreamRef(void *userData) { delete static_cast<StreamRef *>(userData); }

void SVCPP_CALL OnReceived(uint64_t userId, int16_t *data, uint64_t samplesPerChannel, int32_t, uint64_t channels,
                           bool *, void *userData) {
    (*static_cast<StreamRef *>(userData))->Push(userId, data, samplesPerChannel * channels);
}

void SVCPP_CALL OnCaptured(int16_t *data, uint64_t samplesPerChannel, int32_t, uint64_t channels, void *userData) {
    (*static_cast<StreamRef *>(userData))->Push(0, data, samplesPerChannel * channels);
}

/** JS thread: hands every queued frame to its listener. `context` is the stream (alive: the tsfn is released first). */
void Drain(napi_env env, napi_value, void *context, void *) {
    if (!env) return;
    auto *stream = static_cast<AudioStream *>(context);
    stream->signaled.store(false);
    Napi::Env e(env);
    Napi::HandleScope scope(e);
    AudioFrame frame;
    while (stream->Pop(frame)) {
        Napi::Int16Array samples = Napi::Int16Array::New(e, frame.samples);
        std::copy(frame.pcm.begin(), frame.pcm.begin() + static_cast<std::ptrdiff_t>(frame.samples), samples.Data());
        try {
            if (frame.userId && !stream->onReceived.IsEmpty()) {
                stream->onReceived.Call({Napi::BigInt::New(e, frame.userId), samples});
            } else if (!frame.userId && !stream->onCaptured.IsEmpty()) {
                stream->onCaptured.Call({samples});
            }
        } catch (const Napi::Error &error) {
            napi_fatal_exception(env, error.Value());  // a listener threw: like an event listener error
            return;
        }
    }
}

/** Client_StartCallWithAudioStream(client, lobbyId, onReceived | null, onCaptured | null, capacityFrames) → Call |
 * undefined */
Napi::Value StartCallWithAudioStream(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    Svcpp_Client *client = UnwrapClient(env, info[0]);
    const uint64_t lobbyId = U64Arg(info[1]);
    const uint32_t capacity = info[4].IsNumber() ? info[4].As<Napi::Number>().Uint32Value() : 50;
    if (capacity < 1 || capacity > 6000) ThrowErrc(env, Svcpp_Errc_InvalidArgument, nullptr);
    auto stream = std::make_shared<AudioStream>(capacity);
    if (!IsNullish(info[2])) stream->onReceived = Napi::Persistent(info[2].As<Napi::Function>());
    if (!IsNullish(info[3])) stream->onCaptured = Napi::Persistent(info[3].As<Napi::Function>());
    napi_value name = Napi::String::New(env, "svcpp audio stream");
    if (napi_create_threadsafe_function(env, nullptr, nullptr, name, 0, 1, nullptr, nullptr, stream.get(), Drain,
                                        &stream->tsfn) != napi_ok) {
        throw Napi::Error::New(env, "svcpp: cannot create the audio stream's thread-safe function");
    }
    napi_unref_threadsafe_function(env, stream->tsfn);  // audio alone does not keep the process alive
    auto *receivedRef = stream->onReceived.IsEmpty() ? nullptr : new StreamRef(stream);
    auto *capturedRef = stream->onCaptured.IsEmpty() ? nullptr : new StreamRef(stream);
    Svcpp_Call out{};
    const bool started = Svcpp_Client_StartCallWithAudioCallbacks(
        client, lobbyId, receivedRef ? OnReceived : nullptr, receivedRef ? FreeStreamRef : nullptr, receivedRef,
        capturedRef ? OnCaptured : nullptr, capturedRef ? FreeStreamRef : nullptr, capturedRef, &out);
    if (!started) {  // refused: the user data stays ours
        delete receivedRef;
        delete capturedRef;
        return env.Undefined();
    }
    return WrapHandle<Svcpp_Call>(env, out);
}

}  // namespace

void RegisterAudioStream(Napi::Env env, Napi::Object exports) {
    exports.Set("Client_StartCallWithAudioStream",
                Napi::Function::New(env, StartCallWithAudioStream, "Client_StartCallWithAudioStream"));
}

}  // namespace svcpp_node
