#include "voice/media/transport_cipher.hpp"

#include <algorithm>

#include "voice/media/transport_cipher_modes.hpp"

namespace svcpp::core::voice {

namespace {
constexpr std::string_view kAesName = "aead_aes256_gcm_rtpsize";
constexpr std::string_view kXChaChaName = "aead_xchacha20_poly1305_rtpsize";
}  // namespace

std::string_view TransportModeName(TransportMode mode) {
    return mode == TransportMode::AeadAes256GcmRtpsize ? kAesName : kXChaChaName;
}

std::optional<TransportMode> ParseTransportMode(std::string_view name) {
    if (name == kAesName) return TransportMode::AeadAes256GcmRtpsize;
    if (name == kXChaChaName) return TransportMode::AeadXChaCha20Poly1305Rtpsize;
    return std::nullopt;  // xsalsa20_poly1305*, aead_aes256_gcm (non-rtpsize): retired, refused
}

std::unique_ptr<TransportCipher> TransportCipher::Create(TransportMode mode, std::span<const uint8_t> key) {
    if (key.size() != kTransportKeySize) return nullptr;
    std::span<const uint8_t, kTransportKeySize> fixed(key.data(), kTransportKeySize);
    switch (mode) {
        case TransportMode::AeadAes256GcmRtpsize: return CreateAes256GcmCipher(fixed);
        case TransportMode::AeadXChaCha20Poly1305Rtpsize: return CreateXChaCha20Poly1305Cipher(fixed);
    }
    return nullptr;
}

std::unique_ptr<TransportCipher> TransportCipher::Create(std::string_view modeName, std::span<const uint8_t> key) {
    auto mode = ParseTransportMode(modeName);
    return mode ? Create(*mode, key) : nullptr;
}

std::optional<uint32_t> TransportCipher::PacketCounter(std::span<const uint8_t> packet) {
    if (packet.size() < kTransportNonceSuffixSize) return std::nullopt;
    const uint8_t *p = packet.data() + packet.size() - kTransportNonceSuffixSize;
    return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 | static_cast<uint32_t>(p[2]) << 8 |
           p[3];
}

CipherContext MakeCipherContext(const EVP_CIPHER *cipher, bool encrypt, const uint8_t *key) {
    CipherContext ctx(EVP_CIPHER_CTX_new());
    if (!ctx) return nullptr;
    const int ok = encrypt ? EVP_EncryptInit_ex(ctx.get(), cipher, nullptr, key, nullptr)
                           : EVP_DecryptInit_ex(ctx.get(), cipher, nullptr, key, nullptr);
    if (ok != 1) return nullptr;
    return ctx;
}

void WriteCounterNonce(uint32_t counter, std::span<uint8_t> nonce) {
    std::ranges::fill(nonce, uint8_t{0});
    nonce[0] = static_cast<uint8_t>(counter >> 24);
    nonce[1] = static_cast<uint8_t>(counter >> 16);
    nonce[2] = static_cast<uint8_t>(counter >> 8);
    nonce[3] = static_cast<uint8_t>(counter);
}

}  // namespace svcpp::core::voice
