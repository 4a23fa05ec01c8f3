#include "mls/cipher_suite.hpp"

#include <string>

#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"

namespace svcpp::core::mls {
namespace {

Bytes MlsLabel(std::string_view label) { return ToBytes(std::string("MLS 1.0 ") + std::string(label)); }

// struct { opaque label<V>; opaque content<V>; } — the shape of SignContent and EncryptContext.
Bytes LabelledContent(std::string_view label, ByteView content) {
    tls::Writer w;
    w.Opaque(MlsLabel(label));
    w.Opaque(content);
    return w.Take();
}

}  // namespace

Bytes ExpandWithLabel(ByteView secret, std::string_view label, ByteView context, std::size_t length) {
    if (length > UINT16_MAX) throw Error("ExpandWithLabel: length does not fit KDFLabel.length");
    tls::Writer kdfLabel;
    kdfLabel.U16(static_cast<uint16_t>(length));
    kdfLabel.Opaque(MlsLabel(label));
    kdfLabel.Opaque(context);
    return primitives::HkdfExpand(secret, kdfLabel.Bytes(), length);
}

Bytes DeriveSecret(ByteView secret, std::string_view label) {
    return ExpandWithLabel(secret, label, {}, primitives::kHashSize);
}

Bytes DeriveTreeSecret(ByteView secret, std::string_view label, uint32_t generation, std::size_t length) {
    tls::Writer context;
    context.U32(generation);
    return ExpandWithLabel(secret, label, context.Bytes(), length);
}

Bytes RefHash(ByteView label, ByteView value) {
    tls::Writer input;
    input.Opaque(label);
    input.Opaque(value);
    return primitives::Sha256(input.Bytes());
}

Bytes SignWithLabel(ByteView privateKey, std::string_view label, ByteView content) {
    return primitives::EcdsaSign(privateKey, LabelledContent(label, content));
}

bool VerifyWithLabel(ByteView publicKey, std::string_view label, ByteView content, ByteView signature) {
    return primitives::EcdsaVerify(publicKey, LabelledContent(label, content), signature);
}

HpkeCiphertext EncryptWithLabel(ByteView publicKey, std::string_view label, ByteView context, ByteView plaintext) {
    hpke::Sealed sealed = hpke::SealBase(publicKey, LabelledContent(label, context), {}, plaintext);
    return HpkeCiphertext{std::move(sealed.enc), std::move(sealed.ciphertext)};
}

Bytes DecryptWithLabel(ByteView privateKey, std::string_view label, ByteView context,
                       const HpkeCiphertext &ciphertext) {
    return hpke::OpenBase(ciphertext.kemOutput, privateKey, LabelledContent(label, context), {}, ciphertext.ciphertext);
}

}  // namespace svcpp::core::mls
