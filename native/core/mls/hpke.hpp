// HPKE (RFC 9180), base mode only, for the one suite MLS ciphersuite 2 uses: DHKEM(P-256, HKDF-SHA256) (kem 0x0010),
// HKDF-SHA256 (kdf 0x0001), AES-128-GCM (aead 0x0001). OpenSSL 3.0 has no HPKE API, so this composes the primitives.
// PSK and authenticated modes are not implemented: MLS uses only base mode (RFC 9420 §5.1.3).
#pragma once
#include <cstdint>
#include <optional>

#include "mls/bytes.hpp"
#include "mls/primitives.hpp"

namespace svcpp::core::mls::hpke {

/** RFC 9180 §7.1.3 DeriveKeyPair: a deterministic key pair from input keying material. */
primitives::KeyPair DeriveKeyPair(ByteView ikm);

/** A base-mode encryption context (§5.2): a sequence-numbered AEAD and the exporter (§5.3). */
class Context {
  public:
    Context(Bytes key, Bytes baseNonce, Bytes exporterSecret)
        : key_(std::move(key)), baseNonce_(std::move(baseNonce)), exporterSecret_(std::move(exporterSecret)) {}

    Bytes Seal(ByteView aad, ByteView plaintext);
    /** Throws Error when authentication fails (the sequence number does not advance then). */
    Bytes Open(ByteView aad, ByteView ciphertext);
    Bytes Export(ByteView exporterContext, std::size_t length) const;

    const Bytes &Key() const { return key_; }
    const Bytes &BaseNonce() const { return baseNonce_; }
    const Bytes &ExporterSecret() const { return exporterSecret_; }
    uint64_t Sequence() const { return sequence_; }

  private:
    Bytes Nonce() const;

    Bytes key_;
    Bytes baseNonce_;
    Bytes exporterSecret_;
    uint64_t sequence_ = 0;
};

struct SenderSetup {
    Bytes enc;  // the encapsulated key (the ephemeral public key)
    Context context;
};

/**
 * SetupBaseS. `ephemeral` fixes the ephemeral key pair (for the RFC's test vectors); without it a fresh one is drawn.
 */
SenderSetup SetupBaseS(ByteView recipientPublicKey, ByteView info,
                       const std::optional<primitives::KeyPair> &ephemeral = std::nullopt);
Context SetupBaseR(ByteView enc, ByteView recipientPrivateKey, ByteView info);

/** The KEM alone (§4.1), exposed for the vectors' shared_secret. */
Bytes Decap(ByteView enc, ByteView recipientPrivateKey);

/** Single-shot base-mode Seal/Open (§6.1). */
struct Sealed {
    Bytes enc;
    Bytes ciphertext;
};
Sealed SealBase(ByteView recipientPublicKey, ByteView info, ByteView aad, ByteView plaintext);
Bytes OpenBase(ByteView enc, ByteView recipientPrivateKey, ByteView info, ByteView aad, ByteView ciphertext);

}  // namespace svcpp::core::mls::hpke
