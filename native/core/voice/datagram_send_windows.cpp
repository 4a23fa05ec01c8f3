#include "voice/datagram_send.hpp"

#include <winsock2.h>

namespace svcpp::core::voice {

// The socket is non-blocking already (UdpTransport sets it through Asio), and Winsock raises no SIGPIPE.
bool SendDatagramNow(DatagramHandle socket, std::span<const uint8_t> datagram) {
    return ::send(static_cast<SOCKET>(socket), reinterpret_cast<const char *>(datagram.data()),
                  static_cast<int>(datagram.size()), 0) == static_cast<int>(datagram.size());
}

}  // namespace svcpp::core::voice
