// aead_xchacha20_poly1305_rtpsize on libsodium's crypto_aead_xchacha20poly1305_ietf (combined mode writes
// ciphertext || tag, exactly the packet layout). Stateless per packet: XChaCha derives its subkey from the nonce.
#include <sodium.h>

#include <array>
#include <cstring>

#include "voice/media/transport_cipher_modes.hpp"

namespace svcpp::core::voice {

namespace {

static_assert(crypto_aead_xchacha20poly1305_ietf_ABYTES == kTransportTagSize);
static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == kTransportKeySize);
constexpr std::size_t kNonceSize = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;  // 24

class XChaCha20Poly1305Cipher final : public TransportCipher {
public:
    explicit XChaCha20Poly1305Cipher(std::span<const uint8_t, kTransportKeySize> key) {
        std::memcpy(key_.data(), key.data(), key_.size());
    }
    ~XChaCha20Poly1305Cipher() override { sodium_memzero(key_.data(), key_.size()); }

    TransportMode Mode() const override { return TransportMode::AeadXChaCha20Poly1305Rtpsize; }

    std::size_t Seal(std::span<const uint8_t> header, std::span<const uint8_t> plaintext, uint32_t counter,
        std::span<uint8_t> out) override {
        std::size_t total = header.size() + plaintext.size() + kTransportOverhead;
        if (out.size() < total) return 0;
        std::array<uint8_t, kNonceSize> nonce;
        WriteCounterNonce(counter, nonce);
        if (!header.empty()) std::memcpy(out.data(), header.data(), header.size());  // (an empty span may be null)
        unsigned long long written = 0;
        if (crypto_aead_xchacha20poly1305_ietf_encrypt(out.data() + header.size(), &written, plaintext.data(),
                plaintext.size(), header.data(), header.size(), nullptr, nonce.data(), key_.data()) != 0)
            return 0;
        std::memcpy(out.data() + header.size() + written, nonce.data(), kTransportNonceSuffixSize);
        return total;
    }

    std::optional<std::size_t> Open(std::span<const uint8_t> packet, std::size_t headerSize,
        std::span<uint8_t> out) override {
        if (packet.size() < headerSize + kTransportOverhead) return std::nullopt;
        std::size_t sealed = packet.size() - headerSize - kTransportNonceSuffixSize;  // ciphertext || tag
        if (out.size() < sealed - kTransportTagSize) return std::nullopt;
        std::array<uint8_t, kNonceSize> nonce{};
        std::memcpy(nonce.data(), packet.data() + packet.size() - kTransportNonceSuffixSize, kTransportNonceSuffixSize);
        unsigned long long size = 0;
        if (crypto_aead_xchacha20poly1305_ietf_decrypt(out.data(), &size, nullptr, packet.data() + headerSize, sealed,
                packet.data(), headerSize, nonce.data(), key_.data()) != 0)
            return std::nullopt;
        return static_cast<std::size_t>(size);
    }

private:
    std::array<uint8_t, kTransportKeySize> key_{};
};

}  // namespace

std::unique_ptr<TransportCipher> CreateXChaCha20Poly1305Cipher(std::span<const uint8_t, kTransportKeySize> key) {
    if (sodium_init() < 0) return nullptr;  // idempotent and thread-safe; picks the fastest implementation once
    return std::make_unique<XChaCha20Poly1305Cipher>(key);
}

}  // namespace svcpp::core::voice
