#include "voice/media/hchacha20.hpp"

#include <openssl/crypto.h>

namespace svcpp::core::voice {

namespace {

constexpr std::size_t kBlockSize = 64;
constexpr std::array<uint32_t, 4> kSigma = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};  // "expand 32-byte k"

uint32_t LoadLittleEndian(const uint8_t *p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
           static_cast<uint32_t>(p[3]) << 24;
}

void StoreLittleEndian(uint32_t word, uint8_t *p) {
    p[0] = static_cast<uint8_t>(word);
    p[1] = static_cast<uint8_t>(word >> 8);
    p[2] = static_cast<uint8_t>(word >> 16);
    p[3] = static_cast<uint8_t>(word >> 24);
}

}  // namespace

HChaCha20::HChaCha20(std::span<const uint8_t, kKeySize> key)
    : chacha20_(MakeCipherContext(EVP_chacha20(), true, key.data())) {}

bool HChaCha20::Derive(std::span<const uint8_t, kNonceSize> nonce, std::span<uint8_t, kOutputSize> out) {
    static constexpr std::array<uint8_t, kBlockSize> kZeros{};
    std::array<uint8_t, kBlockSize> block;  // the keystream block: encrypting zeros
    int len = 0;
    const bool ok = chacha20_ && EVP_EncryptInit_ex(chacha20_.get(), nullptr, nullptr, nullptr, nonce.data()) == 1 &&
                    EVP_EncryptUpdate(chacha20_.get(), block.data(), &len, kZeros.data(), kBlockSize) == 1 &&
                    static_cast<std::size_t>(len) == kBlockSize;
    if (ok) {
        for (std::size_t i = 0; i < 4; ++i) {
            StoreLittleEndian(LoadLittleEndian(&block[4 * i]) - kSigma[i], &out[4 * i]);
            StoreLittleEndian(LoadLittleEndian(&block[48 + 4 * i]) - LoadLittleEndian(&nonce[4 * i]), &out[16 + 4 * i]);
        }
    } else {
        OPENSSL_cleanse(out.data(), out.size());
    }
    OPENSSL_cleanse(block.data(), block.size());
    return ok;
}

}  // namespace svcpp::core::voice
