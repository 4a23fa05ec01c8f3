// AES-128-GCM with an 8-byte tag, one key, the OpenSSL context kept: re-keying costs more than the cipher itself for
// a 20 ms Opus frame (about 1.3 µs on the reference machine), so each key generation gets one cryptor, reused.
// Encrypt/Decrypt do not allocate. Not thread-safe: one user at a time.
#pragma once
#include <cstdint>
#include <memory>
#include <span>

#include "voice/e2ee/frame_format.hpp"

struct evp_cipher_ctx_st;

namespace svcpp::core::voice::e2ee {

class AesGcmCryptor {
  public:
    /** Throws mls::Error when the key is not 16 bytes or OpenSSL fails. */
    explicit AesGcmCryptor(std::span<const uint8_t> key);
    ~AesGcmCryptor();
    AesGcmCryptor(const AesGcmCryptor &) = delete;
    AesGcmCryptor &operator=(const AesGcmCryptor &) = delete;

    /** `ciphertext` must be as large as `plaintext`; writes the truncated tag to `tag`. */
    bool Encrypt(std::span<const uint8_t, kIvSize> iv, std::span<const uint8_t> aad, std::span<const uint8_t> plaintext,
                 std::span<uint8_t> ciphertext, std::span<uint8_t, kTagSize> tag) noexcept;
    /** False when the tag does not verify (the output is then garbage and must be discarded). */
    bool Decrypt(std::span<const uint8_t, kIvSize> iv, std::span<const uint8_t> aad,
                 std::span<const uint8_t> ciphertext, std::span<const uint8_t, kTagSize> tag,
                 std::span<uint8_t> plaintext) noexcept;

  private:
    evp_cipher_ctx_st *encrypt_ = nullptr;
    evp_cipher_ctx_st *decrypt_ = nullptr;
};

}  // namespace svcpp::core::voice::e2ee
