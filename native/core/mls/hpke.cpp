#include "mls/hpke.hpp"

namespace svcpp::core::mls::hpke {
namespace {

using namespace primitives;

// suite_id values (RFC 9180 §4.1 and §5.1): the KEM's own for the KEM, the full triple for the key schedule.
const Bytes kKemSuiteId = {'K', 'E', 'M', 0x00, 0x10};
const Bytes kHpkeSuiteId = {'H', 'P', 'K', 'E', 0x00, 0x10, 0x00, 0x01, 0x00, 0x01};
constexpr uint8_t kModeBase = 0x00;

Bytes LabeledExtract(const Bytes &suiteId, ByteView salt, std::string_view label, ByteView ikm) {
    Bytes labeled = ToBytes("HPKE-v1");
    labeled.insert(labeled.end(), suiteId.begin(), suiteId.end());
    labeled.insert(labeled.end(), label.begin(), label.end());
    labeled.insert(labeled.end(), ikm.begin(), ikm.end());
    return HkdfExtract(salt, labeled);
}

Bytes LabeledExpand(const Bytes &suiteId, ByteView prk, std::string_view label, ByteView info, std::size_t length) {
    Bytes labeled = {static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length)};
    Bytes version = ToBytes("HPKE-v1");
    labeled.insert(labeled.end(), version.begin(), version.end());
    labeled.insert(labeled.end(), suiteId.begin(), suiteId.end());
    labeled.insert(labeled.end(), label.begin(), label.end());
    labeled.insert(labeled.end(), info.begin(), info.end());
    return HkdfExpand(prk, labeled, length);
}

Bytes ExtractAndExpand(ByteView dh, ByteView kemContext) {
    Bytes prk = LabeledExtract(kKemSuiteId, {}, "eae_prk", dh);
    return LabeledExpand(kKemSuiteId, prk, "shared_secret", kemContext, kHashSize);
}

Context KeyScheduleBase(ByteView sharedSecret, ByteView info) {
    Bytes pskIdHash = LabeledExtract(kHpkeSuiteId, {}, "psk_id_hash", {});
    Bytes infoHash = LabeledExtract(kHpkeSuiteId, {}, "info_hash", info);
    Bytes context = {kModeBase};
    context.insert(context.end(), pskIdHash.begin(), pskIdHash.end());
    context.insert(context.end(), infoHash.begin(), infoHash.end());
    Bytes secret = LabeledExtract(kHpkeSuiteId, sharedSecret, "secret", {});  // psk = "" in base mode
    return Context(LabeledExpand(kHpkeSuiteId, secret, "key", context, kAeadKeySize),
                   LabeledExpand(kHpkeSuiteId, secret, "base_nonce", context, kAeadNonceSize),
                   LabeledExpand(kHpkeSuiteId, secret, "exp", context, kHashSize));
}

}  // namespace

KeyPair DeriveKeyPair(ByteView ikm) {
    Bytes prk = LabeledExtract(kKemSuiteId, {}, "dkp_prk", ikm);
    for (unsigned counter = 0; counter < 256; ++counter) {
        Bytes counterByte = {static_cast<uint8_t>(counter)};
        Bytes candidate = LabeledExpand(kKemSuiteId, prk, "candidate", counterByte, kPrivateKeySize);
        // bitmask 0xff for P-256: the whole first byte is kept.
        if (P256ScalarIsValid(candidate)) return KeyPair{candidate, P256PublicFromPrivate(candidate)};
    }
    throw Error("HPKE DeriveKeyPair: no valid candidate in 256 tries");
}

Bytes Context::Nonce() const {
    Bytes nonce = baseNonce_;
    for (std::size_t i = 0; i < 8; ++i) nonce[nonce.size() - 1 - i] ^= static_cast<uint8_t>(sequence_ >> (8 * i));
    return nonce;
}

Bytes Context::Seal(ByteView aad, ByteView plaintext) {
    if (sequence_ == UINT64_MAX) throw Error("HPKE: message limit reached");
    Bytes ciphertext = AeadSeal(key_, Nonce(), aad, plaintext);
    ++sequence_;
    return ciphertext;
}

Bytes Context::Open(ByteView aad, ByteView ciphertext) {
    if (sequence_ == UINT64_MAX) throw Error("HPKE: message limit reached");
    Bytes plaintext = AeadOpen(key_, Nonce(), aad, ciphertext);
    ++sequence_;
    return plaintext;
}

Bytes Context::Export(ByteView exporterContext, std::size_t length) const {
    return LabeledExpand(kHpkeSuiteId, exporterSecret_, "sec", exporterContext, length);
}

SenderSetup SetupBaseS(ByteView recipientPublicKey, ByteView info, const std::optional<KeyPair> &ephemeral) {
    KeyPair e = ephemeral ? *ephemeral : GenerateP256();
    Bytes dh = P256Dh(e.privateKey, recipientPublicKey);
    Bytes kemContext = Concat(e.publicKey, recipientPublicKey);
    Bytes sharedSecret = ExtractAndExpand(dh, kemContext);
    return SenderSetup{e.publicKey, KeyScheduleBase(sharedSecret, info)};
}

Bytes Decap(ByteView enc, ByteView recipientPrivateKey) {
    Bytes dh = P256Dh(recipientPrivateKey, enc);
    Bytes kemContext = Concat(enc, P256PublicFromPrivate(recipientPrivateKey));
    return ExtractAndExpand(dh, kemContext);
}

Context SetupBaseR(ByteView enc, ByteView recipientPrivateKey, ByteView info) {
    return KeyScheduleBase(Decap(enc, recipientPrivateKey), info);
}

Sealed SealBase(ByteView recipientPublicKey, ByteView info, ByteView aad, ByteView plaintext) {
    SenderSetup setup = SetupBaseS(recipientPublicKey, info);
    return Sealed{setup.enc, setup.context.Seal(aad, plaintext)};
}

Bytes OpenBase(ByteView enc, ByteView recipientPrivateKey, ByteView info, ByteView aad, ByteView ciphertext) {
    Context context = SetupBaseR(enc, recipientPrivateKey, info);
    return context.Open(aad, ciphertext);
}

}  // namespace svcpp::core::mls::hpke
