#include "voice/datagram_send.hpp"

#include <sys/socket.h>

namespace svcpp::core::voice {

bool SendDatagramNow(DatagramHandle socket, std::span<const uint8_t> datagram) {
    return ::send(static_cast<int>(socket), datagram.data(), datagram.size(), MSG_DONTWAIT | MSG_NOSIGNAL) ==
           static_cast<ssize_t>(datagram.size());
}

}  // namespace svcpp::core::voice
