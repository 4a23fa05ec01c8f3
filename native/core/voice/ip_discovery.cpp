#include "voice/ip_discovery.hpp"

#include <algorithm>

namespace svcpp::core::voice {

namespace {

constexpr uint16_t kRequest = 1;
constexpr uint16_t kResponse = 2;
constexpr uint16_t kBodyLength = 70;
constexpr std::size_t kAddressOffset = 8;
constexpr std::size_t kAddressSize = 64;

void PutU16(uint8_t *p, uint16_t v) {
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}
uint16_t GetU16(const uint8_t *p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }
uint32_t GetU32(const uint8_t *p) {
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

}  // namespace

std::array<uint8_t, kDiscoveryPacketSize> MakeDiscoveryRequest(uint32_t ssrc) {
    std::array<uint8_t, kDiscoveryPacketSize> packet{};
    PutU16(packet.data(), kRequest);
    PutU16(packet.data() + 2, kBodyLength);
    packet[4] = static_cast<uint8_t>(ssrc >> 24);
    packet[5] = static_cast<uint8_t>(ssrc >> 16);
    packet[6] = static_cast<uint8_t>(ssrc >> 8);
    packet[7] = static_cast<uint8_t>(ssrc);
    return packet;
}

std::optional<DiscoveredAddress> ParseDiscoveryResponse(std::span<const uint8_t> packet, uint32_t ssrc) {
    if (packet.size() != kDiscoveryPacketSize) return std::nullopt;
    if (GetU16(packet.data()) != kResponse || GetU16(packet.data() + 2) != kBodyLength) return std::nullopt;
    if (GetU32(packet.data() + 4) != ssrc) return std::nullopt;
    const uint8_t *address = packet.data() + kAddressOffset;
    const uint8_t *end = std::find(address, address + kAddressSize, uint8_t{0});
    if (end == address || end == address + kAddressSize) return std::nullopt;  // empty or not NUL-terminated
    DiscoveredAddress out;
    out.address.assign(reinterpret_cast<const char *>(address), static_cast<std::size_t>(end - address));
    out.port = GetU16(packet.data() + kAddressOffset + kAddressSize);
    if (out.port == 0) return std::nullopt;
    return out;
}

}  // namespace svcpp::core::voice
