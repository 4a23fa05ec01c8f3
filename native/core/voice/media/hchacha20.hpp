// HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2), the subkey derivation of XChaCha20, from OpenSSL's ChaCha20.
//
// OpenSSL implements ChaCha20 and ChaCha20-Poly1305 but not HChaCha20. A ChaCha20 block is the 20-round permutation of
// the input state plus that state (RFC 8439 §2.3); HChaCha20 is words 0–3 and 12–15 of the permutation without the
// addition. EVP_chacha20's 16-byte IV is state words 12–15 as they are (a 4-byte counter then a 12-byte nonce, each
// word little-endian), so with the IV set to HChaCha20's 16-byte nonce, the block's words 0–3 minus the constants and
// its words 12–15 minus the nonce's words are HChaCha20's output.
//
// One instance per thread: it keeps the key scheduled in its context between derivations.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "voice/media/transport_cipher_modes.hpp"

namespace svcpp::core::voice {

class HChaCha20 {
  public:
    static constexpr std::size_t kKeySize = 32;
    static constexpr std::size_t kNonceSize = 16;
    static constexpr std::size_t kOutputSize = 32;

    /** Invalid (Valid() false) when OpenSSL cannot set up ChaCha20. */
    explicit HChaCha20(std::span<const uint8_t, kKeySize> key);
    bool Valid() const { return chacha20_ != nullptr; }

    /** Writes HChaCha20(key, nonce) into out; false when OpenSSL fails (out is then wiped). */
    bool Derive(std::span<const uint8_t, kNonceSize> nonce, std::span<uint8_t, kOutputSize> out);

  private:
    CipherContext chacha20_;  // ChaCha20 under the key
};

}  // namespace svcpp::core::voice
