#include "voice/media/rtp.hpp"

namespace svcpp::core::voice {

namespace {

uint16_t Read16(const uint8_t *p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
uint32_t Read32(const uint8_t *p) {
    return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 | static_cast<uint32_t>(p[2]) << 8 |
           p[3];
}
void Write16(uint8_t *p, uint16_t v) {
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}
void Write32(uint8_t *p, uint32_t v) {
    Write16(p, static_cast<uint16_t>(v >> 16));
    Write16(p + 2, static_cast<uint16_t>(v));
}

constexpr std::size_t kRtcpHeaderSize = 8;       // V/P/RC, PT, length, sender SSRC
constexpr std::size_t kRtcpSenderInfoSize = 20;  // NTP(8) RTP ts(4) packets(4) octets(4), SR only
constexpr std::size_t kRtcpBlockSize = 24;
constexpr std::size_t kDiscoverySize = 74;

bool IsVersion2(uint8_t first) { return (first >> 6) == 2; }
// RFC 5761 §4: RTP payload types 64–95 would collide with RTCP packet types 192–223 once the marker bit is
// included, so the second byte in [192, 223] means RTCP.
bool LooksLikeRtcp(uint8_t second) { return second >= 192 && second <= 223; }

}  // namespace

std::size_t WriteRtpHeader(const RtpHeader &header, std::span<uint8_t> out) {
    if (out.size() < kRtpFixedHeaderSize) return 0;
    out[0] = 0x80;  // V=2, P=0, X=0, CC=0
    out[1] = static_cast<uint8_t>((header.marker ? 0x80 : 0) | (header.payloadType & 0x7F));
    Write16(&out[2], header.sequence);
    Write32(&out[4], header.timestamp);
    Write32(&out[8], header.ssrc);
    return kRtpFixedHeaderSize;
}

std::optional<RtpHeader> ParseRtpHeader(std::span<const uint8_t> packet) {
    if (packet.size() < kRtpFixedHeaderSize || !IsVersion2(packet[0]) || LooksLikeRtcp(packet[1])) return std::nullopt;
    RtpHeader h;
    h.csrcCount = packet[0] & 0x0F;
    h.hasExtension = (packet[0] & 0x10) != 0;
    h.marker = (packet[1] & 0x80) != 0;
    h.payloadType = packet[1] & 0x7F;
    h.sequence = Read16(&packet[2]);
    h.timestamp = Read32(&packet[4]);
    h.ssrc = Read32(&packet[8]);
    std::size_t size = kRtpFixedHeaderSize + 4u * h.csrcCount;
    if (h.hasExtension) {
        if (packet.size() < size + 4) return std::nullopt;
        h.extensionProfile = Read16(&packet[size]);
        h.extensionBodySize = 4u * Read16(&packet[size + 2]);
        size += 4;
    }
    if (packet.size() < size) return std::nullopt;
    h.headerSize = size;
    return h;
}

PacketKind ClassifyPacket(std::span<const uint8_t> packet) {
    if (packet.size() == kDiscoverySize && Read16(&packet[0]) == 0x0002 && Read16(&packet[2]) == 70)
        return PacketKind::IpDiscovery;
    if (packet.size() < kRtcpHeaderSize || !IsVersion2(packet[0])) return PacketKind::Unknown;
    if (LooksLikeRtcp(packet[1])) return PacketKind::Rtcp;
    return packet.size() >= kRtpFixedHeaderSize ? PacketKind::Rtp : PacketKind::Unknown;
}

std::optional<RtcpReport> ParseRtcp(std::span<const uint8_t> packet) {
    if (packet.size() < kRtcpHeaderSize || !IsVersion2(packet[0]) || !LooksLikeRtcp(packet[1])) return std::nullopt;
    RtcpReport r;
    r.packetType = packet[1];
    r.length = 4u * (static_cast<std::size_t>(Read16(&packet[2])) + 1);
    if (r.length > packet.size() || r.length < kRtcpHeaderSize) return std::nullopt;
    r.senderSsrc = Read32(&packet[4]);
    uint8_t count = packet[0] & 0x1F;
    std::size_t offset = kRtcpHeaderSize;
    if (r.packetType == static_cast<uint8_t>(RtcpType::SenderReport)) {
        offset += kRtcpSenderInfoSize;
    } else if (r.packetType != static_cast<uint8_t>(RtcpType::ReceiverReport)) {
        return r;  // SDES, BYE, APP, …: recognised and skipped, no report blocks
    }
    if (offset + kRtcpBlockSize * count > r.length) return std::nullopt;
    for (uint8_t i = 0; i < count; ++i, offset += kRtcpBlockSize) {
        const uint8_t *b = &packet[offset];
        RtcpReportBlock &block = r.blocks[i];
        block.ssrc = Read32(b);
        block.fractionLost = b[4];
        uint32_t lost = static_cast<uint32_t>(b[5]) << 16 | static_cast<uint32_t>(b[6]) << 8 | b[7];
        block.cumulativeLost = (lost & 0x800000) ? static_cast<int32_t>(lost) - 0x1000000 : static_cast<int32_t>(lost);
        block.highestSequence = Read32(b + 8);
        block.jitter = Read32(b + 12);
    }
    r.blockCount = count;
    return r;
}

}  // namespace svcpp::core::voice
