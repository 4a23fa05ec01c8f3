// aead_xchacha20_poly1305_rtpsize on OpenSSL EVP.
//
// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 §2.3) is ChaCha20-Poly1305 (RFC 8439) under the subkey
// HChaCha20(key, nonce[0..16]) with the 12-byte nonce 0^4 || nonce[16..24] (HChaCha20 from OpenSSL's ChaCha20:
// voice/media/hchacha20.hpp). In this mode the nonce is the packet counter then zeros, so the subkey changes with
// every packet and the inner nonce is always zero. Per packet: one ChaCha20 block for the subkey, then the AEAD keyed
// with it. Checked against libsodium's XChaCha20-Poly1305, an independent implementation, in
// native/tests/core/voice/transport_cipher_test.cpp.
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>

#include "voice/media/hchacha20.hpp"
#include "voice/media/transport_cipher_modes.hpp"

namespace svcpp::core::voice {

namespace {

constexpr std::size_t kNonceSize = 24;
constexpr std::size_t kInnerNonceSize = 12;  // ChaCha20-Poly1305's: 0^4 || nonce[16..24]

/** The per-packet key; wiped when it goes out of scope. */
struct Subkey {
    std::array<uint8_t, HChaCha20::kOutputSize> bytes;
    ~Subkey() { OPENSSL_cleanse(bytes.data(), bytes.size()); }
};

class XChaCha20Poly1305Cipher final : public TransportCipher {
  public:
    XChaCha20Poly1305Cipher(HChaCha20 hchacha, CipherContext seal, CipherContext open)
        : hchacha_(std::move(hchacha)), seal_(std::move(seal)), open_(std::move(open)) {}

    TransportMode Mode() const override { return TransportMode::AeadXChaCha20Poly1305Rtpsize; }

    std::size_t Seal(std::span<const uint8_t> header, std::span<const uint8_t> plaintext, uint32_t counter,
                     std::span<uint8_t> out) override {
        std::size_t total = header.size() + plaintext.size() + kTransportOverhead;
        if (out.size() < total || plaintext.size() > INT32_MAX || header.size() > INT32_MAX) return 0;
        std::array<uint8_t, kNonceSize> nonce;
        WriteCounterNonce(counter, nonce);
        Subkey subkey;
        if (!Derive(nonce, subkey)) return 0;
        if (!header.empty()) std::memcpy(out.data(), header.data(), header.size());  // (an empty span may be null)
        uint8_t *cipher = out.data() + header.size();
        int len = 0;
        const bool sealed =
            EVP_EncryptInit_ex(seal_.get(), nullptr, nullptr, subkey.bytes.data(), InnerNonce(nonce).data()) == 1 &&
            (header.empty() ||
             EVP_EncryptUpdate(seal_.get(), nullptr, &len, header.data(), static_cast<int>(header.size())) == 1) &&
            (plaintext.empty() ||
             EVP_EncryptUpdate(seal_.get(), cipher, &len, plaintext.data(), static_cast<int>(plaintext.size())) == 1) &&
            EVP_EncryptFinal_ex(seal_.get(), cipher + plaintext.size(), &len) == 1 &&
            EVP_CIPHER_CTX_ctrl(seal_.get(), EVP_CTRL_AEAD_GET_TAG, kTransportTagSize, cipher + plaintext.size()) == 1;
        if (!sealed) return 0;
        std::memcpy(cipher + plaintext.size() + kTransportTagSize, nonce.data(), kTransportNonceSuffixSize);
        return total;
    }

    std::optional<std::size_t> Open(std::span<const uint8_t> packet, std::size_t headerSize,
                                    std::span<uint8_t> out) override {
        if (packet.size() < headerSize + kTransportOverhead) return std::nullopt;
        std::size_t size = packet.size() - headerSize - kTransportOverhead;
        if (out.size() < size || size > INT32_MAX || headerSize > INT32_MAX) return std::nullopt;
        std::array<uint8_t, kNonceSize> nonce{};
        std::memcpy(nonce.data(), packet.data() + packet.size() - kTransportNonceSuffixSize, kTransportNonceSuffixSize);
        Subkey subkey;
        if (!Derive(nonce, subkey)) return std::nullopt;
        const uint8_t *cipher = packet.data() + headerSize;
        // EVP_CTRL_AEAD_SET_TAG takes a non-const pointer but only reads it.
        std::array<uint8_t, kTransportTagSize> tag;
        std::memcpy(tag.data(), cipher + size, kTransportTagSize);
        int len = 0;
        const bool opened =
            EVP_DecryptInit_ex(open_.get(), nullptr, nullptr, subkey.bytes.data(), InnerNonce(nonce).data()) == 1 &&
            (headerSize == 0 ||
             EVP_DecryptUpdate(open_.get(), nullptr, &len, packet.data(), static_cast<int>(headerSize)) == 1) &&
            (size == 0 || EVP_DecryptUpdate(open_.get(), out.data(), &len, cipher, static_cast<int>(size)) == 1) &&
            EVP_CIPHER_CTX_ctrl(open_.get(), EVP_CTRL_AEAD_SET_TAG, kTransportTagSize, tag.data()) == 1 &&
            EVP_DecryptFinal_ex(open_.get(), out.data() + size, &len) == 1;  // fails on a tag mismatch
        if (!opened) return std::nullopt;
        return size;
    }

  private:
    bool Derive(const std::array<uint8_t, kNonceSize> &nonce, Subkey &subkey) {
        return hchacha_.Derive(std::span<const uint8_t, HChaCha20::kNonceSize>(nonce.data(), HChaCha20::kNonceSize),
                               subkey.bytes);
    }

    static std::array<uint8_t, kInnerNonceSize> InnerNonce(const std::array<uint8_t, kNonceSize> &nonce) {
        std::array<uint8_t, kInnerNonceSize> inner{};
        std::memcpy(inner.data() + 4, nonce.data() + HChaCha20::kNonceSize, kNonceSize - HChaCha20::kNonceSize);
        return inner;
    }

    HChaCha20 hchacha_;
    CipherContext seal_;  // ChaCha20-Poly1305, keyed per packet with the subkey
    CipherContext open_;
};

}  // namespace

std::unique_ptr<TransportCipher> CreateXChaCha20Poly1305Cipher(std::span<const uint8_t, kTransportKeySize> key) {
    HChaCha20 hchacha(key);
    CipherContext seal = MakeCipherContext(EVP_chacha20_poly1305(), true, nullptr);
    CipherContext open = MakeCipherContext(EVP_chacha20_poly1305(), false, nullptr);
    if (!hchacha.Valid() || !seal || !open) return nullptr;
    return std::make_unique<XChaCha20Poly1305Cipher>(std::move(hchacha), std::move(seal), std::move(open));
}

}  // namespace svcpp::core::voice
