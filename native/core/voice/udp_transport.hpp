// The UDP side of a call (platform/PROTOCOL.md §13 Voice): one connected UDP socket to the voice server's relay,
// with its own network thread (Client::Thread::Network) that receives packets and runs IP discovery and the 5 s
// keepalive. Sending does not go through that thread: the audio thread sends each packet with one non-blocking
// send(2) on the connected socket (the kernel serialises sends; a full socket buffer drops the packet, as a
// congested network would), so the real-time path never waits for another thread.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "threads/sdk_threads.hpp"
#include "voice/ip_discovery.hpp"

namespace svcpp::core::voice {

class UdpTransport {
  public:
    using PacketFn = std::function<void(std::span<const uint8_t>)>;              // on the network thread
    using DiscoveredFn = std::function<void(std::optional<DiscoveredAddress>)>;  // on the network thread

    /** threads: the client's (the UDP thread enters it as a Network thread); null in engine tests. */
    explicit UdpTransport(std::shared_ptr<SdkThreads> threads = nullptr);
    ~UdpTransport();  // Close()
    UdpTransport(const UdpTransport &) = delete;
    UdpTransport &operator=(const UdpTransport &) = delete;

    /**
     * Connects to ip:port and runs IP discovery for ssrc (up to 5 tries, 1 s apart); `discovered` gets our external
     * address, or nullopt when the server never answered or the address is unusable. Afterwards every other
     * datagram goes to `packet`. Calling Open again replaces the previous connection (a reconnect with a new Ready).
     */
    void Open(std::string ip, uint16_t port, uint32_t ssrc, DiscoveredFn discovered, PacketFn packet);
    /** Sends one datagram now (any thread, never blocks); false when not open or the kernel refused it. */
    bool Send(std::span<const uint8_t> datagram);
    /** Stops the thread and closes the socket; no callback runs afterwards. */
    void Close();

    uint64_t PacketsReceived() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace svcpp::core::voice
