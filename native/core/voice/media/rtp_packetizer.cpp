#include "voice/media/rtp_packetizer.hpp"

#include <cstring>

#include "voice/media/audio_format.hpp"

namespace svcpp::core::voice {

RtpPacketizer::RtpPacketizer(uint32_t ssrc, uint16_t firstSequence, uint32_t firstTimestamp, uint32_t firstCounter)
    : ssrc_(ssrc), sequence_(firstSequence), timestamp_(firstTimestamp), counter_(firstCounter) {}

std::size_t RtpPacketizer::Packetize(std::span<const uint8_t> opusFrame, FrameTransform &transform,
                                     TransportCipher &cipher, std::span<uint8_t> out) {
    std::array<uint8_t, kRtpFixedHeaderSize> header;
    RtpHeader fields;
    fields.sequence = sequence_;
    fields.timestamp = timestamp_;
    fields.ssrc = ssrc_;
    WriteRtpHeader(fields, header);

    auto frameSize = transform.Encrypt(ssrc_, opusFrame, frame_);
    std::size_t size = frameSize ? cipher.Seal(header, std::span(frame_).first(*frameSize), counter_, out) : 0;
    timestamp_ += kOpusFrameSamplesPerChannel;  // the frame's 20 ms passed whether or not it was sent
    if (size == 0) return 0;
    ++sequence_;
    ++counter_;
    return size;
}

OpenRtpResult OpenRtpPacket(std::span<const uint8_t> datagram, TransportCipher &cipher, std::span<uint8_t> out) {
    OpenRtpResult result;
    if (ClassifyPacket(datagram) != PacketKind::Rtp) return result;  // error = NotRtp
    auto header = ParseRtpHeader(datagram);
    if (!header) return result;
    if (header->payloadType != kOpusPayloadType) {
        result.error = OpenRtpError::WrongPayloadType;
        return result;
    }
    auto size = cipher.Open(datagram, header->headerSize, out);
    if (!size) {
        result.error = OpenRtpError::DecryptFailed;
        return result;
    }
    if (header->extensionBodySize > *size) {
        result.error = OpenRtpError::Malformed;
        return result;
    }
    result.packet = OpenedRtpPacket{
        *header, std::span<const uint8_t>(out.data() + header->extensionBodySize, *size - header->extensionBodySize)};
    return result;
}

}  // namespace svcpp::core::voice
