// The audio thread's send of one media packet on the call's connected UDP socket: a direct, non-blocking system call
// (no Asio handler, no allocation), one implementation per system (datagram_send_posix.cpp: send(2) with
// MSG_DONTWAIT | MSG_NOSIGNAL; datagram_send_windows.cpp: Winsock send on the socket Asio already made non-blocking).
#pragma once
#include <cstdint>
#include <span>

namespace svcpp::core::voice {

/**
 * The system's socket, as an integer an std::atomic can hold: a descriptor on POSIX, a SOCKET on Windows (Asio's
 * native_handle_type there is a class, the socket with its remote endpoint, which converts to the SOCKET).
 */
using DatagramHandle = std::intptr_t;
/** No socket: -1 on POSIX, INVALID_SOCKET (~0) on Windows. */
inline constexpr DatagramHandle kNoDatagramHandle = -1;

/** True when the whole datagram was handed to the system; a full send buffer drops it (false), never blocks. */
bool SendDatagramNow(DatagramHandle socket, std::span<const uint8_t> datagram);

}  // namespace svcpp::core::voice
