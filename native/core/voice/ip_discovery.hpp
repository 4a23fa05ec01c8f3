// UDP IP discovery of the voice server (platform/PROTOCOL.md §13 Voice): a 74-byte big-endian packet
//   type u16 (1 request, 2 response) · length u16 = 70 · SSRC u32 · address 64 bytes NUL-terminated ASCII · port u16
// The request carries zeros as address and port; the response carries the client's address and UDP port as the
// server saw them, which the client puts into op 1 Select Protocol.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace svcpp::core::voice {

constexpr std::size_t kDiscoveryPacketSize = 74;

struct DiscoveredAddress {
    std::string address;
    uint16_t port = 0;
};

std::array<uint8_t, kDiscoveryPacketSize> MakeDiscoveryRequest(uint32_t ssrc);

/** The response to a request for `ssrc`; nullopt for anything else (wrong size, type, length, SSRC, no NUL). */
std::optional<DiscoveredAddress> ParseDiscoveryResponse(std::span<const uint8_t> packet, uint32_t ssrc);

}  // namespace svcpp::core::voice
