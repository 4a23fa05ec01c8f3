// The two TransportCipher implementations (private to voice/media; TransportCipher::Create picks one).
#pragma once
#include <memory>
#include <span>

#include "voice/media/transport_cipher.hpp"

namespace svcpp::core::voice {

/** aead_aes256_gcm_rtpsize on OpenSSL EVP; null when OpenSSL cannot set up the context. */
std::unique_ptr<TransportCipher> CreateAes256GcmCipher(std::span<const uint8_t, kTransportKeySize> key);
/** aead_xchacha20_poly1305_rtpsize on libsodium; null when sodium_init fails. */
std::unique_ptr<TransportCipher> CreateXChaCha20Poly1305Cipher(std::span<const uint8_t, kTransportKeySize> key);

/** Writes the big-endian counter into the first 4 bytes of `nonce` and leaves the rest zero. */
void WriteCounterNonce(uint32_t counter, std::span<uint8_t> nonce);

}  // namespace svcpp::core::voice
