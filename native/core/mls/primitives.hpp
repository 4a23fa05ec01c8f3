// The cryptographic primitives of ciphersuite 2 (MLS_128_DHKEMP256_AES128GCM_SHA256_P256) on OpenSSL 3.0 EVP:
// SHA-256, HMAC-SHA256, HKDF-SHA256 (RFC 5869, built on HMAC), AES-128-GCM, and P-256 (ECDH, ECDSA-SHA256 with DER
// signatures). Public keys are 65-byte uncompressed points (compressed 33-byte points are accepted as peer keys);
// private keys are 32-byte big-endian scalars.
// Every function throws mls::Error on failure (invalid key, failed authentication, OpenSSL error).
#pragma once
#include <cstddef>

#include "mls/bytes.hpp"

namespace svcpp::core::mls::primitives {

inline constexpr std::size_t kHashSize = 32;       // Nh
inline constexpr std::size_t kAeadKeySize = 16;    // Nk
inline constexpr std::size_t kAeadNonceSize = 12;  // Nn
inline constexpr std::size_t kAeadTagSize = 16;
inline constexpr std::size_t kPublicKeySize = 65;   // Npk: uncompressed SEC1 point
inline constexpr std::size_t kPrivateKeySize = 32;  // Nsk

Bytes Sha256(ByteView data);
Bytes HmacSha256(ByteView key, ByteView data);
Bytes HkdfExtract(ByteView salt, ByteView ikm);
Bytes HkdfExpand(ByteView prk, ByteView info, std::size_t length);

/** AES-128-GCM with a full 16-byte tag appended to the ciphertext. */
Bytes AeadSeal(ByteView key, ByteView nonce, ByteView aad, ByteView plaintext);
/** Throws Error when the tag does not verify. */
Bytes AeadOpen(ByteView key, ByteView nonce, ByteView aad, ByteView ciphertext);

struct KeyPair {
    Bytes privateKey;  // 32-byte scalar
    Bytes publicKey;   // 65-byte uncompressed point
};

/** A fresh random P-256 key pair. */
KeyPair GenerateP256();
/** The public key of a scalar; throws if the scalar is 0 or not below the group order. */
Bytes P256PublicFromPrivate(ByteView privateKey);
/** True when the 32 bytes are a valid scalar (1 ≤ s < n). */
bool P256ScalarIsValid(ByteView privateKey);
/** ECDH: the x coordinate of privateKey·peerPublic (32 bytes). Throws on a point not on the curve. */
Bytes P256Dh(ByteView privateKey, ByteView peerPublicKey);
/** ECDSA over SHA-256(message), DER-encoded. */
Bytes EcdsaSign(ByteView privateKey, ByteView message);
/** False (never throws) for a wrong signature, a malformed DER signature or an invalid key. */
bool EcdsaVerify(ByteView publicKey, ByteView message, ByteView signature);

/** Cryptographically secure random bytes. */
Bytes RandomBytes(std::size_t size);

}  // namespace svcpp::core::mls::primitives
