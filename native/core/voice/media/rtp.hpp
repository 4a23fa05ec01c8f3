// RTP (RFC 3550) as the voice protocol uses it: version 2, payload type 0x78 (120) for Opus, no padding, no CSRCs on
// send. On receive, CSRCs and a header extension (X=1, e.g. the RFC 8285 one-byte profile 0xBEDE) are accepted.
//
// Byte layout of a sent packet: 12-byte header (0x80, 0x78, seq BE16, timestamp BE32, SSRC BE32).
// On receive, the "rtpsize" header that transport encryption authenticates is the fixed 12 bytes + 4 × CC CSRC
// bytes + (if X=1) the 4-byte extension preamble (profile, length in 32-bit words). The extension's body (4 × length
// bytes) is encrypted along with the payload, so it is skipped only after decryption: see RtpHeader::extensionBodySize.
//
// RTCP (RFC 3550 §6) shares the socket (RFC 5761 demultiplexing: second byte 192–223 is RTCP); it must never reach
// the decoder. Pure functions: any thread, no allocation.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>

namespace svcpp::core::voice {

inline constexpr uint8_t kOpusPayloadType = 0x78;
inline constexpr std::size_t kRtpFixedHeaderSize = 12;

struct RtpHeader {
    uint8_t payloadType = kOpusPayloadType;
    bool marker = false;
    uint16_t sequence = 0;
    uint32_t timestamp = 0;
    uint32_t ssrc = 0;

    // Filled by ParseRtpHeader (ignored by WriteRtpHeader, which writes no CSRC and no extension):
    uint8_t csrcCount = 0;
    bool hasExtension = false;
    uint16_t extensionProfile = 0;      // e.g. 0xBEDE
    std::size_t headerSize = 0;         // the authenticated header ("rtpsize" AAD): 12 + 4·CC (+ 4 if X=1)
    std::size_t extensionBodySize = 0;  // bytes to drop from the front of the decrypted payload (4 × length words)
};

/** Writes the 12-byte header into `out`; returns 12, or 0 when `out` is too small. */
std::size_t WriteRtpHeader(const RtpHeader &header, std::span<uint8_t> out);

/**
 * Parses the header of a received RTP packet. nullopt when it is not RTP version 2, is truncated (CSRCs or the
 * extension preamble missing), or is RTCP (see ClassifyPacket).
 */
std::optional<RtpHeader> ParseRtpHeader(std::span<const uint8_t> packet);

enum class PacketKind {
    Rtp,
    Rtcp,
    IpDiscovery,  // the 74-byte discovery response (type 0x0002, length 70)
    Unknown,      // too short, wrong version, keepalives: drop
};
/** Tells apart what can arrive on the voice UDP socket. */
PacketKind ClassifyPacket(std::span<const uint8_t> packet);

/** RTCP packet types we recognise (RFC 3550 §12.1). */
enum class RtcpType : uint8_t {
    SenderReport = 200,
    ReceiverReport = 201,
    SourceDescription = 202,
    Bye = 203,
    App = 204
};

struct RtcpReportBlock {
    uint32_t ssrc = 0;             // the source this block reports on
    uint8_t fractionLost = 0;      // /256, since the previous report
    int32_t cumulativeLost = 0;    // 24-bit signed
    uint32_t highestSequence = 0;  // extended highest sequence number received
    uint32_t jitter = 0;           // interarrival jitter, timestamp units
};

/** The first packet of an RTCP compound packet, with up to 31 report blocks (SR or RR). */
struct RtcpReport {
    uint8_t packetType = 0;  // RtcpType values; other types carry no blocks here
    uint32_t senderSsrc = 0;
    std::size_t length = 0;  // this RTCP packet's size in bytes (4 × (length field + 1))
    uint8_t blockCount = 0;  // report blocks parsed (SR/RR only)
    std::array<RtcpReportBlock, 31> blocks{};
};

/** Parses the leading RTCP packet of `packet` (clear text). nullopt when malformed or truncated. */
std::optional<RtcpReport> ParseRtcp(std::span<const uint8_t> packet);

/** Signed distance b − a between two 16-bit sequence numbers, wrap-aware (in [−32768, 32767]). */
inline int SequenceDelta(uint16_t a, uint16_t b) { return static_cast<int16_t>(static_cast<uint16_t>(b - a)); }
/** True when sequence number b comes after a (wrap-aware). */
inline bool SequenceNewer(uint16_t a, uint16_t b) { return SequenceDelta(a, b) > 0; }
/** Signed distance b − a between two 32-bit RTP timestamps, wrap-aware. */
inline int64_t TimestampDelta(uint32_t a, uint32_t b) { return static_cast<int32_t>(b - a); }

}  // namespace svcpp::core::voice
