// libFuzzer target: opening arbitrary datagrams with the voice transport ciphers (voice/media/transport_cipher.cpp,
// both rtpsize AEAD modes). A datagram from anyone on the network reaches Open(); it must fail cleanly unless it
// was sealed with the session key, and never write past `out`. A packet this target seals itself must open to the
// same plaintext, and any one flipped bit must make it fail.
//
// Input: byte 0 picks the mode and the header size, the rest is the datagram (and, for the round trip, the
// plaintext).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "voice/media/transport_cipher.hpp"

using namespace svcpp::core::voice;

namespace {
constexpr std::array<uint8_t, kTransportKeySize> kKey = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                                         12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                                         23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const TransportMode mode =
        data[0] & 1 ? TransportMode::AeadXChaCha20Poly1305Rtpsize : TransportMode::AeadAes256GcmRtpsize;
    static auto aes = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, kKey);
    static auto chacha = TransportCipher::Create(TransportMode::AeadXChaCha20Poly1305Rtpsize, kKey);
    TransportCipher *cipher = mode == TransportMode::AeadAes256GcmRtpsize ? aes.get() : chacha.get();
    if (cipher == nullptr) __builtin_trap();  // the key is valid: Create must succeed

    const std::span<const uint8_t> packet(data + 1, size - 1);
    const size_t headerSize = (data[0] >> 1) % 40;  // RTP headers are 12..76 bytes; RTCP's AAD is 8
    // An output buffer exactly as large as the plaintext could be, plus a guard checked below.
    const size_t room =
        packet.size() > headerSize + kTransportOverhead ? packet.size() - headerSize - kTransportOverhead : 0;
    std::vector<uint8_t> out(room + 16, 0xAA);
    const auto opened = cipher->Open(packet, headerSize, std::span<uint8_t>(out.data(), room));
    if (opened && *opened > room) __builtin_trap();
    for (size_t i = room; i < out.size(); ++i)
        if (out[i] != 0xAA) __builtin_trap();  // written past the span it was given
    (void)TransportCipher::PacketCounter(packet);

    // Round trip: header = the first headerSize bytes, plaintext = the rest.
    if (packet.size() < headerSize) return 0;
    const auto header = packet.first(headerSize);
    const auto plaintext = packet.subspan(headerSize);
    std::vector<uint8_t> sealed(headerSize + plaintext.size() + kTransportOverhead);
    const uint32_t counter = static_cast<uint32_t>(size * 2654435761u);
    if (cipher->Seal(header, plaintext, counter, sealed) != sealed.size()) __builtin_trap();
    if (TransportCipher::PacketCounter(sealed) != counter) __builtin_trap();
    std::vector<uint8_t> back(plaintext.size() + 1);
    const auto n = cipher->Open(sealed, headerSize, back);
    if (!n || *n != plaintext.size() || std::memcmp(back.data(), plaintext.data(), plaintext.size()) != 0)
        __builtin_trap();
    sealed[data[0] % sealed.size()] ^= 0x01;
    if (cipher->Open(sealed, headerSize, back)) __builtin_trap();
    return 0;
}
