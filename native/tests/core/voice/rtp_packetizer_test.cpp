// RtpPacketizer and OpenRtpPacket: the send and receive ends of the media transport, composed with the frame
// transform and both ciphers.
#include <gtest/gtest.h>

#include "voice/media/opus_codec.hpp"
#include "voice/media/rtp_packetizer.hpp"
#include "voice_test_bytes.hpp"

using namespace svcpp::core::voice;

namespace {

std::vector<uint8_t> Key() { return std::vector<uint8_t>(32, 0x5A); }

// A transform that marks frames, to show where it runs; refuses frames starting with 0x00 (as a cryptor without a key).
class MarkingTransform final : public FrameTransform {
  public:
    std::size_t MaxEncryptOverhead() const override { return 1; }
    std::optional<std::size_t> Encrypt(uint32_t, std::span<const uint8_t> frame, std::span<uint8_t> out) override {
        if (frame.empty() || frame[0] == 0x00) return std::nullopt;
        std::copy(frame.begin(), frame.end(), out.begin());
        out[frame.size()] = 0xEE;
        return frame.size() + 1;
    }
    std::optional<std::size_t> Decrypt(uint64_t, uint32_t, std::span<const uint8_t> frame,
                                       std::span<uint8_t> out) override {
        if (frame.empty() || frame.back() != 0xEE) return std::nullopt;
        std::copy(frame.begin(), frame.end() - 1, out.begin());
        return frame.size() - 1;
    }
};

}  // namespace

TEST(RtpPacketizer, BuildsSequentialEncryptedPackets) {
    for (auto mode : {TransportMode::AeadAes256GcmRtpsize, TransportMode::AeadXChaCha20Poly1305Rtpsize}) {
        auto send = TransportCipher::Create(mode, Key());
        auto receive = TransportCipher::Create(mode, Key());
        PassThroughFrameTransform transform;
        RtpPacketizer packetizer(0x11223344, 65535, 4294966336u, 7);
        std::vector<uint8_t> datagram(kMaxVoicePacketBytes), plain(kMaxVoicePacketBytes);
        const std::vector<uint8_t> frame = {1, 2, 3, 4, 5};
        for (int i = 0; i < 3; ++i) {
            std::size_t n = packetizer.Packetize(frame, transform, *send, datagram);
            ASSERT_EQ(n, 12 + frame.size() + kTransportOverhead);
            auto opened = OpenRtpPacket(std::span(datagram).first(n), *receive, plain);
            ASSERT_TRUE(opened.packet);
            EXPECT_EQ(opened.packet->header.sequence, uint16_t(65535 + i));  // wraps to 0, 1
            EXPECT_EQ(opened.packet->header.timestamp, uint32_t(4294966336u + 960u * i));
            EXPECT_EQ(opened.packet->header.ssrc, 0x11223344u);
            EXPECT_EQ(TransportCipher::PacketCounter(std::span(datagram).first(n)), 7u + i);
            EXPECT_EQ(std::vector<uint8_t>(opened.packet->payload.begin(), opened.packet->payload.end()), frame);
        }
    }
}

TEST(RtpPacketizer, AReconnectedStreamContinuesTheSequenceTimestampAndCounter) {
    auto send = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, Key());
    PassThroughFrameTransform transform;
    std::vector<uint8_t> datagram(kMaxVoicePacketBytes);
    const std::vector<uint8_t> frame = {1, 2, 3};
    RtpPacketizer before(0x11223344, 100, 5000, 0);
    for (int i = 0; i < 4; ++i) ASSERT_GT(before.Packetize(frame, transform, *send, datagram), 0u);
    before.SkipFrame();                              // a muted 20 ms: time passes, no packet
    RtpPacketizer after(0x11223344, 40000, 123, 0);  // the new pipeline's random start…
    after.ContinueFrom(before);                      // …replaced by where the old stream stopped
    EXPECT_EQ(after.NextSequence(), 104);
    EXPECT_EQ(after.NextTimestamp(), 5000u + 5 * 960u);
    EXPECT_EQ(after.NextCounter(), 4u);  // a nonce counter never goes back
}

TEST(RtpPacketizer, FrameTransformRunsBetweenEncoderAndPacketizer) {
    auto send = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, Key());
    auto receive = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, Key());
    MarkingTransform transform;
    RtpPacketizer packetizer(1, 10, 1000);
    std::vector<uint8_t> datagram(kMaxVoicePacketBytes), plain(kMaxVoicePacketBytes), frame(kMaxVoicePacketBytes);
    std::size_t n = packetizer.Packetize(std::vector<uint8_t>{9, 8, 7}, transform, *send, datagram);
    ASSERT_GT(n, 0u);
    auto opened = OpenRtpPacket(std::span(datagram).first(n), *receive, plain);
    ASSERT_TRUE(opened.packet);
    EXPECT_EQ(ToHex(std::vector<uint8_t>(opened.packet->payload.begin(), opened.packet->payload.end())), "090807ee");
    auto decoded = transform.Decrypt(1, 1, opened.packet->payload, frame);
    ASSERT_EQ(decoded, 3u);

    // A dropped frame is not sent: the sequence and counter stay, the timestamp moves on (its 20 ms passed).
    EXPECT_EQ(packetizer.Packetize(std::vector<uint8_t>{0x00}, transform, *send, datagram), 0u);
    EXPECT_EQ(packetizer.NextSequence(), 11);
    EXPECT_EQ(packetizer.NextCounter(), 1u);
    EXPECT_EQ(packetizer.NextTimestamp(), 1000u + 2 * 960u);
    packetizer.SkipFrame();
    EXPECT_EQ(packetizer.NextTimestamp(), 1000u + 3 * 960u);
}

TEST(RtpPacketizer, PassThroughKeepsTheSilenceFrame) {
    PassThroughFrameTransform transform;
    std::vector<uint8_t> out(3);
    EXPECT_EQ(transform.Encrypt(1, kOpusSilenceFrame, out), 3u);
    EXPECT_TRUE(IsOpusSilenceFrame(out));
    EXPECT_EQ(transform.Decrypt(5, 1, kOpusSilenceFrame, out), 3u);
    EXPECT_TRUE(IsOpusSilenceFrame(out));
    std::vector<uint8_t> small(2);
    EXPECT_FALSE(transform.Encrypt(1, kOpusSilenceFrame, small));
    EXPECT_EQ(transform.MaxEncryptOverhead(), 0u);
}

// A packet from the server with X=1: the extension body is encrypted with the payload and dropped after decryption.
TEST(RtpPacketizer, OpenDropsTheDecryptedExtensionBody) {
    auto cipher = TransportCipher::Create(TransportMode::AeadXChaCha20Poly1305Rtpsize, Key());
    auto header = FromHex(
        "9078000500000960000000aa"
        "bede0001");
    auto plain = FromHex(
        "10ff0000"
        "f8fffe");  // one 4-byte word of extension elements, then the Opus frame
    std::vector<uint8_t> datagram(header.size() + plain.size() + kTransportOverhead);
    ASSERT_GT(cipher->Seal(header, plain, 3, datagram), 0u);
    std::vector<uint8_t> out(kMaxVoicePacketBytes);
    auto opened = OpenRtpPacket(datagram, *cipher, out);
    ASSERT_TRUE(opened.packet);
    EXPECT_TRUE(IsOpusSilenceFrame(opened.packet->payload));
    EXPECT_EQ(opened.packet->header.sequence, 5);

    // The extension claims more words than the plaintext holds: malformed.
    auto longHeader = FromHex(
        "9078000500000960000000aa"
        "bede0009");
    ASSERT_GT(cipher->Seal(longHeader, plain, 4, datagram), 0u);
    EXPECT_EQ(OpenRtpPacket(datagram, *cipher, out).error, OpenRtpError::Malformed);
}

TEST(RtpPacketizer, OpenSaysWhyADatagramYieldsNoAudio) {
    auto cipher = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, Key());
    std::vector<uint8_t> out(kMaxVoicePacketBytes);
    EXPECT_EQ(OpenRtpPacket(FromHex("81c9000100000001"), *cipher, out).error, OpenRtpError::NotRtp);
    EXPECT_EQ(OpenRtpPacket(FromHex("0100000000000000"), *cipher, out).error, OpenRtpError::NotRtp);

    auto header = FromHex("8060000100000960000000aa");  // payload type 96, not Opus
    std::vector<uint8_t> datagram(12 + 3 + kTransportOverhead);
    cipher->Seal(header, kOpusSilenceFrame, 1, datagram);
    EXPECT_EQ(OpenRtpPacket(datagram, *cipher, out).error, OpenRtpError::WrongPayloadType);

    auto opus = FromHex("8078000100000960000000aa");
    cipher->Seal(opus, kOpusSilenceFrame, 1, datagram);
    datagram[13] ^= 1;
    EXPECT_EQ(OpenRtpPacket(datagram, *cipher, out).error, OpenRtpError::DecryptFailed);
}
