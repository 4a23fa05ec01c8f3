// Two call engines talking through a UDP relay on loopback, every thread real: each side has its AudioEngine
// (Voice thread, the WAV file device on the engine clock), its UdpTransport (Network thread: IP discovery, receive)
// and a CallMedia. The relay here answers IP discovery and forwards each datagram to the other side unchanged (both
// sides share one key, so no re-encryption is needed). A 440 Hz tone in A's microphone file must come out of B's
// speaker file at 440 Hz, and B must see A speaking. This is the suite the ThreadSanitizer build runs for the engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <chrono>
#include <cmath>
#include <numbers>  // std::numbers::pi: M_PI is POSIX's, not in strict C++ (MinGW)
#include <filesystem>
#include <string>
#include <vector>
#include <memory>
#include <thread>

#include "threads/sdk_threads.hpp"
#include "voice/audio_devices.hpp"
#include "voice/audio_engine.hpp"
#include "voice/call_controls.hpp"
#include "voice/call_media.hpp"
#include "voice/media/wav_file.hpp"
#include "voice/udp_transport.hpp"
#include "thread_census.hpp"

namespace voice = svcpp::core::voice;
namespace asio = boost::asio;
using asio::ip::udp;
using namespace std::chrono_literals;
using svcpp::core::ClientThread;
using svcpp::core::SdkThreads;

namespace {

/** Answers discovery; forwards anything else from one registered peer to the other. Its own thread. */
class Relay {
  public:
    Relay() : socket_(io_, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
        thread_ = std::thread([this] { Run(); });
    }
    ~Relay() {
        stop_ = true;
        // A blocking receive does not wake on close(): a datagram to ourselves does.
        udp::socket waker(io_, udp::v4());
        const uint8_t byte = 0;
        waker.send_to(asio::buffer(&byte, 1), socket_.local_endpoint());
        thread_.join();
    }
    uint16_t Port() const { return socket_.local_endpoint().port(); }

  private:
    void Run() {
        std::array<uint8_t, 1500> buffer{};
        while (!stop_) {
            udp::endpoint from;
            boost::system::error_code ec;
            const std::size_t n = socket_.receive_from(asio::buffer(buffer), from, 0, ec);
            if (ec) continue;
            if (n == 74 && buffer[1] == 1) {  // discovery request: answer with the sender's address and port
                std::array<uint8_t, 74> response{};
                std::copy_n(buffer.begin(), 8, response.begin());
                response[1] = 2;
                const std::string address = from.address().to_string();
                std::copy(address.begin(), address.end(), response.begin() + 8);
                response[72] = static_cast<uint8_t>(from.port() >> 8);
                response[73] = static_cast<uint8_t>(from.port());
                socket_.send_to(asio::buffer(response), from, 0, ec);
                if (peers_[0] == udp::endpoint())
                    peers_[0] = from;
                else if (peers_[0] != from)
                    peers_[1] = from;
                continue;
            }
            const udp::endpoint &to = from == peers_[0] ? peers_[1] : peers_[0];
            if (to != udp::endpoint()) socket_.send_to(asio::buffer(buffer.data(), n), to, 0, ec);
        }
    }

    asio::io_context io_;
    udp::socket socket_;
    std::array<udp::endpoint, 2> peers_{};
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

/** One side of the call: engine, transport, media — each side's threads registered like one client's. */
struct Side {
    Side(std::shared_ptr<voice::AudioDevices> devices, uint32_t ssrc) : ssrc(ssrc), engine(devices, threads, {}) {}

    void Connect(uint16_t relayPort, const std::array<uint8_t, 32> &key, voice::CallMediaEvents events) {
        controls->vadAutomatic = false;
        controls->vadThresholdDb = -50.0f;
        transport->Open(
            "127.0.0.1", relayPort, ssrc,
            [this](std::optional<voice::DiscoveredAddress> a) { discovered = a.has_value(); },
            [this](std::span<const uint8_t> datagram) {
                if (auto m = std::atomic_load(&media)) m->OnDatagram(datagram);
            });
        auto made = voice::CallMedia::Create("aead_xchacha20_poly1305_rtpsize", key, ssrc, transport, controls,
                                             std::move(events));
        ASSERT_TRUE(made);
        std::atomic_store(&media, made);
    }

    uint32_t ssrc;
    std::shared_ptr<SdkThreads> threads = std::make_shared<SdkThreads>(std::nullopt, nullptr);
    voice::AudioEngine engine;
    std::shared_ptr<voice::UdpTransport> transport = std::make_shared<voice::UdpTransport>(threads);
    std::shared_ptr<voice::CallControls> controls =
        std::make_shared<voice::CallControls>(std::make_shared<voice::ClientVoiceControls>());
    std::shared_ptr<voice::CallMedia> media;
    std::atomic<bool> discovered{false};
};

bool WaitFor(const std::function<bool()> &done, std::chrono::seconds limit = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

}  // namespace

TEST(CallMediaLoopback, AToneFromAsFileComesOutOfBsFileAt440Hz) {
    const auto dir = std::filesystem::temp_directory_path() / ("svcpp-voice-engine-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string tonePath = (dir / "tone.wav").string(), heardPath = (dir / "heard.wav").string();
    voice::WavAudio tone{48000, 2, {}};
    for (int i = 0; i < 48000; ++i) {  // 1 s
        const auto v = static_cast<int16_t>(std::lround(std::sin(2 * std::numbers::pi * 440 * i / 48000.0) * 16000));
        tone.samples.push_back(v);
        tone.samples.push_back(v);
    }
    ASSERT_TRUE(voice::WriteWavFile(tonePath, tone));

    Relay relay;
    auto devices = std::make_shared<voice::AudioDevices>();
    Side a(devices, 1), b(devices, 2);
    a.engine.SelectInput("file:" + tonePath);
    a.engine.SelectOutput("null");
    b.engine.SelectInput("null");
    b.engine.SelectOutput("file:" + heardPath);
    std::array<uint8_t, 32> key{};
    for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i * 7 + 1);
    std::atomic<int> speakingOn{0}, speakingOff{0};
    voice::CallMediaEvents bEvents;
    bEvents.remoteSpeaking = [&](uint64_t user, bool on) {
        if (user == 100) (on ? speakingOn : speakingOff)++;
    };
    a.Connect(relay.Port(), key, {});
    b.Connect(relay.Port(), key, std::move(bEvents));
    ASSERT_TRUE(WaitFor([&] { return a.discovered.load() && b.discovered.load(); }));
    b.controls->MapSsrc(1, 100);  // the gateway's op 5 would say: SSRC 1 is user 100

    b.engine.Attach(b.media);
    a.engine.Attach(a.media);
    // SetThreadPriority underneath, while both sides' audio and network threads run (TSan watches the registry):
    // only A's audio thread and A's network thread take the (lowered: no privilege needed) nice values.
    a.threads->SetPriority(ClientThread::Voice, 11);
    a.threads->SetPriority(ClientThread::Network, 13);
    // (A thread that had not started yet applies them as it enters: wait for that, not for a time.)
    // (Windows maps nice values onto its seven priority levels: the values are read back where the system says them.)
    if (svcpp::test::ThreadNicesAreReadable()) {
        EXPECT_TRUE(WaitFor([&] { return std::ranges::count(svcpp::test::ThreadNicesNamed("svcpp-voice"), 11) == 1; }))
            << "A's audio thread";
        EXPECT_TRUE(WaitFor([&] { return std::ranges::count(svcpp::test::ThreadNicesNamed("svcpp-net"), 13) == 1; }))
            << "A's network thread";
    }
    // B's audio thread too, once it has named itself (it may still be starting).
    EXPECT_TRUE(WaitFor([&] { return svcpp::test::CountThreadsNamed("svcpp-voice") == 2; })) << "both audio threads";
    // B sees A stop speaking when the tone ends — and earlier too where A's audio thread cannot keep real time (an
    // emulator: qemu-user runs the encoder several times slower), so the wait is for both: most of the tone sent,
    // and A heard to stop.
    ASSERT_TRUE(WaitFor([&] { return a.media->PacketsSent() > 40u && speakingOff.load() > 0; }))
        << "B never saw A stop speaking after the tone (" << a.media->PacketsSent() << " packets sent)";
    EXPECT_GE(speakingOn.load(), 1);
    a.engine.Detach(a.media.get());
    b.engine.Detach(b.media.get());  // closes and finalises B's speaker file
    EXPECT_GT(a.media->PacketsSent(), 40u);
    EXPECT_GT(b.media->PacketsDecoded(), 40u);

    const auto heard = voice::ReadWavFile(heardPath);
    ASSERT_TRUE(heard);
    // Upward zero crossings of the left channel in the loud 100 ms windows (the first and last loud window, where the
    // tone starts or stops mid-window, left out).
    const std::size_t window = 4800;
    std::vector<std::size_t> loudCrossings;
    for (std::size_t w = 0; (w + 1) * window * 2 <= heard->samples.size(); ++w) {
        double energy = 0;
        std::size_t crossings = 0;
        int16_t previous = 0;
        for (std::size_t i = w * window; i < (w + 1) * window; ++i) {
            const int16_t v = heard->samples[i * 2];
            energy += static_cast<double>(v) * v;
            if (previous < 0 && v >= 0) ++crossings;
            previous = v;
        }
        if (std::sqrt(energy / window) > 2000) loudCrossings.push_back(crossings);
    }
    ASSERT_GE(loudCrossings.size(), 7u);  // most of the 1 s tone arrived
    // One vote per window (the median): a window that is loud because it starts with tone but goes on with the
    // decoder's concealment (the network thread starved on a loaded machine) has many times the crossings, and
    // pooling them would let two such windows outvote the tone.
    std::vector<std::size_t> inner(loudCrossings.begin() + 1, loudCrossings.end() - 1);
    std::ranges::nth_element(inner, inner.begin() + static_cast<std::ptrdiff_t>(inner.size() / 2));
    const double hz = static_cast<double>(inner[inner.size() / 2]) / 0.1;
    EXPECT_NEAR(hz, 440.0, 10.0);
    std::filesystem::remove_all(dir);
}
