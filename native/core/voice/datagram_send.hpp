// The audio thread's send of one media packet on the call's connected UDP socket: a direct, non-blocking system call
// (no Asio handler, no allocation), one implementation per system (datagram_send_posix.cpp: send(2) with
// MSG_DONTWAIT | MSG_NOSIGNAL; datagram_send_windows.cpp: Winsock send on the socket Asio already made non-blocking).
#pragma once
#include <cstdint>
#include <span>

#include <boost/asio/ip/udp.hpp>

namespace svcpp::core::voice {

using DatagramHandle = boost::asio::ip::udp::socket::native_handle_type;
/** No socket: -1 on POSIX, INVALID_SOCKET (~0) on Windows. */
inline const DatagramHandle kNoDatagramHandle = static_cast<DatagramHandle>(-1);

/** True when the whole datagram was handed to the system; a full send buffer drops it (false), never blocks. */
bool SendDatagramNow(DatagramHandle socket, std::span<const uint8_t> datagram);

}  // namespace svcpp::core::voice
