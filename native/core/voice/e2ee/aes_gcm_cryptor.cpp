#include "voice/e2ee/aes_gcm_cryptor.hpp"

#include <openssl/evp.h>

#include <algorithm>

#include "mls/bytes.hpp"

namespace svcpp::core::voice::e2ee {
namespace {

EVP_CIPHER_CTX *KeyedContext(std::span<const uint8_t> key, bool encrypt) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx) throw mls::Error("OpenSSL: cipher context");
    // The key is set once here; each frame only sets the IV.
    int ok = EVP_CipherInit_ex(ctx, EVP_aes_128_gcm(), nullptr, key.data(), nullptr, encrypt ? 1 : 0);
    if (ok != 1) {
        EVP_CIPHER_CTX_free(ctx);
        throw mls::Error("OpenSSL: AES-128-GCM init");
    }
    return ctx;
}

}  // namespace

AesGcmCryptor::AesGcmCryptor(std::span<const uint8_t> key) {
    if (key.size() != kKeySize) throw mls::Error("DAVE frame key must be 16 bytes");
    encrypt_ = KeyedContext(key, true);
    try {
        decrypt_ = KeyedContext(key, false);
    } catch (...) {
        EVP_CIPHER_CTX_free(encrypt_);
        throw;
    }
}

AesGcmCryptor::~AesGcmCryptor() {
    EVP_CIPHER_CTX_free(encrypt_);
    EVP_CIPHER_CTX_free(decrypt_);
}

bool AesGcmCryptor::Encrypt(std::span<const uint8_t, kIvSize> iv, std::span<const uint8_t> aad,
                            std::span<const uint8_t> plaintext, std::span<uint8_t> ciphertext,
                            std::span<uint8_t, kTagSize> tag) noexcept {
    if (ciphertext.size() < plaintext.size()) return false;
    int len = 0;
    if (EVP_EncryptInit_ex(encrypt_, nullptr, nullptr, nullptr, iv.data()) != 1) return false;
    if (!aad.empty() && EVP_EncryptUpdate(encrypt_, nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1) {
        return false;
    }
    if (!plaintext.empty() && EVP_EncryptUpdate(encrypt_, ciphertext.data(), &len, plaintext.data(),
                                                static_cast<int>(plaintext.size())) != 1) {
        return false;
    }
    if (EVP_EncryptFinal_ex(encrypt_, ciphertext.data() + plaintext.size(), &len) != 1) return false;
    uint8_t fullTag[16];
    if (EVP_CIPHER_CTX_ctrl(encrypt_, EVP_CTRL_GCM_GET_TAG, sizeof fullTag, fullTag) != 1) return false;
    std::copy_n(fullTag, kTagSize, tag.begin());
    return true;
}

bool AesGcmCryptor::Decrypt(std::span<const uint8_t, kIvSize> iv, std::span<const uint8_t> aad,
                            std::span<const uint8_t> ciphertext, std::span<const uint8_t, kTagSize> tag,
                            std::span<uint8_t> plaintext) noexcept {
    if (plaintext.size() < ciphertext.size()) return false;
    int len = 0;
    if (EVP_DecryptInit_ex(decrypt_, nullptr, nullptr, nullptr, iv.data()) != 1) return false;
    // GCM verifies a truncated tag when told its length (OpenSSL accepts 4..16 bytes).
    uint8_t tagCopy[kTagSize];
    std::copy(tag.begin(), tag.end(), tagCopy);
    if (EVP_CIPHER_CTX_ctrl(decrypt_, EVP_CTRL_GCM_SET_TAG, kTagSize, tagCopy) != 1) return false;
    if (!aad.empty() && EVP_DecryptUpdate(decrypt_, nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1) {
        return false;
    }
    if (!ciphertext.empty() && EVP_DecryptUpdate(decrypt_, plaintext.data(), &len, ciphertext.data(),
                                                 static_cast<int>(ciphertext.size())) != 1) {
        return false;
    }
    uint8_t final[16];
    return EVP_DecryptFinal_ex(decrypt_, final, &len) == 1;
}

}  // namespace svcpp::core::voice::e2ee
