#include "voice/udp_transport.hpp"

#include <array>
#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <thread>

#include "voice/datagram_send.hpp"
#include "voice/thread_setup.hpp"

namespace svcpp::core::voice {

namespace asio = boost::asio;
using asio::ip::udp;
using std::chrono::milliseconds;

namespace {
constexpr int kDiscoveryTries = 5;
constexpr milliseconds kDiscoveryRetry{1000};
constexpr milliseconds kKeepalive{5000};
constexpr std::size_t kMaxDatagram = 1500;
}  // namespace

struct UdpTransport::Impl {
    explicit Impl(std::shared_ptr<SdkThreads> threads)
        : work(asio::make_work_guard(io)), socket(io), discoveryTimer(io), keepaliveTimer(io) {
        thread = std::thread([this, threads = std::move(threads)] {
            auto membership = SetUpCurrentThread(threads, ClientThread::Network, "svcpp-net");
            io.run();
        });
    }

    asio::io_context io;
    asio::executor_work_guard<asio::io_context::executor_type> work;
    udp::socket socket;
    asio::steady_timer discoveryTimer;
    asio::steady_timer keepaliveTimer;
    std::thread thread;
    std::atomic<DatagramHandle> fd{
        kNoDatagramHandle};  // the connected socket the audio thread sends on; none when closed
    std::atomic<uint64_t> received{0};

    // Network-thread state.
    uint64_t generation = 0;
    uint32_t ssrc = 0;
    bool discovering = false;
    int triesLeft = 0;
    uint32_t keepaliveCounter = 0;
    DiscoveredFn discovered;
    PacketFn packet;
    std::array<uint8_t, kMaxDatagram> buffer{};

    void OpenOnThread(const std::string &ip, uint16_t port, uint32_t ssrcValue, DiscoveredFn done, PacketFn onPacket) {
        CloseSocket();
        const uint64_t g = ++generation;
        ssrc = ssrcValue;
        discovered = std::move(done);
        packet = std::move(onPacket);
        boost::system::error_code ec;
        const auto address = asio::ip::make_address(ip, ec);
        if (!ec) {
            socket.open(address.is_v4() ? udp::v4() : udp::v6(), ec);
        }
        if (!ec) socket.connect(udp::endpoint(address, port), ec);
        if (ec) {
            auto fn = std::move(discovered);
            if (fn) fn(std::nullopt);
            return;
        }
        socket.non_blocking(true, ec);
        fd.store(static_cast<DatagramHandle>(socket.native_handle()));
        discovering = true;
        triesLeft = kDiscoveryTries;
        Receive(g);
        SendDiscovery(g);
        ScheduleKeepalive(g);
    }

    void SendDiscovery(uint64_t g) {
        if (g != generation || !discovering) return;
        if (triesLeft-- <= 0) {
            discovering = false;
            auto fn = std::move(discovered);
            if (fn) fn(std::nullopt);
            return;
        }
        const auto request = MakeDiscoveryRequest(ssrc);
        boost::system::error_code ec;
        socket.send(asio::buffer(request), 0, ec);
        discoveryTimer.expires_after(kDiscoveryRetry);
        discoveryTimer.async_wait([this, g](const boost::system::error_code &e) {
            if (!e) SendDiscovery(g);
        });
    }

    void ScheduleKeepalive(uint64_t g) {
        keepaliveTimer.expires_after(kKeepalive);
        keepaliveTimer.async_wait([this, g](const boost::system::error_code &e) {
            if (e || g != generation || !socket.is_open()) return;
            // 8 bytes, a little-endian u32 counter first: the server tolerates and ignores it; NATs keep the mapping.
            std::array<uint8_t, 8> ping{};
            const uint32_t n = keepaliveCounter++;
            for (int i = 0; i < 4; ++i) ping[i] = static_cast<uint8_t>(n >> (8 * i));
            boost::system::error_code ec;
            socket.send(asio::buffer(ping), 0, ec);
            ScheduleKeepalive(g);
        });
    }

    void Receive(uint64_t g) {
        socket.async_receive(asio::buffer(buffer), [this, g](const boost::system::error_code &ec, std::size_t n) {
            if (g != generation) return;
            if (ec) {
                if (ec == asio::error::operation_aborted || !socket.is_open()) return;
                // ICMP port unreachable while the relay restarts: keep listening.
                return Receive(g);
            }
            std::span<const uint8_t> datagram(buffer.data(), n);
            if (discovering) {
                if (auto address = ParseDiscoveryResponse(datagram, ssrc)) {
                    discovering = false;
                    discoveryTimer.cancel();
                    auto fn = std::move(discovered);
                    if (fn) fn(std::move(address));
                }
            } else {
                received.fetch_add(1, std::memory_order_relaxed);
                if (packet) packet(datagram);
            }
            if (g == generation && socket.is_open()) Receive(g);
        });
    }

    void CloseSocket() {
        fd.store(kNoDatagramHandle);
        ++generation;
        discovering = false;
        discoveryTimer.cancel();
        keepaliveTimer.cancel();
        boost::system::error_code ec;
        if (socket.is_open()) socket.close(ec);
    }

    void Stop() {
        if (!thread.joinable()) return;
        asio::post(io, [this] {
            CloseSocket();
            discovered = {};
            packet = {};
            work.reset();
            io.stop();
        });
        if (thread.get_id() == std::this_thread::get_id()) {
            thread.detach();  // cannot join ourselves; the loop ends after this handler
        } else {
            thread.join();
        }
    }
};

UdpTransport::UdpTransport(std::shared_ptr<SdkThreads> threads) : impl_(std::make_unique<Impl>(std::move(threads))) {}
UdpTransport::~UdpTransport() { Close(); }

void UdpTransport::Open(std::string ip, uint16_t port, uint32_t ssrc, DiscoveredFn discovered, PacketFn packet) {
    asio::post(impl_->io, [impl = impl_.get(), ip = std::move(ip), port, ssrc, discovered = std::move(discovered),
                           packet = std::move(packet)]() mutable {
        impl->OpenOnThread(ip, port, ssrc, std::move(discovered), std::move(packet));
    });
}

bool UdpTransport::Send(std::span<const uint8_t> datagram) {
    const DatagramHandle fd = impl_->fd.load();
    if (fd == kNoDatagramHandle) return false;
    return SendDatagramNow(fd, datagram);
}

void UdpTransport::Close() { impl_->Stop(); }

uint64_t UdpTransport::PacketsReceived() const { return impl_->received.load(); }

}  // namespace svcpp::core::voice
