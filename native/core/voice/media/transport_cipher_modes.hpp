// The two TransportCipher implementations (private to voice/media; TransportCipher::Create picks one).
#pragma once
#include <openssl/evp.h>

#include <memory>
#include <span>

#include "voice/media/transport_cipher.hpp"

namespace svcpp::core::voice {

/** aead_aes256_gcm_rtpsize on OpenSSL EVP; null when OpenSSL cannot set up the context. */
std::unique_ptr<TransportCipher> CreateAes256GcmCipher(std::span<const uint8_t, kTransportKeySize> key);
/** aead_xchacha20_poly1305_rtpsize on OpenSSL EVP (its HChaCha20 from EVP's ChaCha20); null as above. */
std::unique_ptr<TransportCipher> CreateXChaCha20Poly1305Cipher(std::span<const uint8_t, kTransportKeySize> key);

struct CipherContextDeleter {
    void operator()(EVP_CIPHER_CTX *ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
/** An OpenSSL cipher context; freeing it wipes the key material in it. */
using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, CipherContextDeleter>;
/** A context set up for `cipher` in one direction, with `key` when not null; null when OpenSSL fails. */
CipherContext MakeCipherContext(const EVP_CIPHER *cipher, bool encrypt, const uint8_t *key);

/** Writes the big-endian counter into the first 4 bytes of `nonce` and leaves the rest zero. */
void WriteCounterNonce(uint32_t counter, std::span<uint8_t> nonce);

}  // namespace svcpp::core::voice
