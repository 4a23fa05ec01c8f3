#include "mls/key_schedule.hpp"

#include <string>

#include "mls/cipher_suite.hpp"
#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"

namespace svcpp::core::mls {

Bytes GroupContext::Encode() const {
    tls::Writer w;
    w.U16(kProtocolVersionMls10);
    w.U16(kCipherSuite);
    w.Opaque(groupId);
    w.U64(epoch);
    w.Opaque(treeHash);
    w.Opaque(confirmedTranscriptHash);
    w.Opaque(extensions);
    return w.Take();
}

Bytes WelcomeSecret(ByteView joinerSecret, ByteView pskSecret) {
    return DeriveSecret(primitives::HkdfExtract(joinerSecret, pskSecret), "welcome");
}

EpochSecrets DeriveEpochSecretsFromJoiner(ByteView joinerSecret, ByteView pskSecret, ByteView encodedGroupContext) {
    EpochSecrets s;
    s.joinerSecret.assign(joinerSecret.begin(), joinerSecret.end());
    Bytes memberPrk = primitives::HkdfExtract(joinerSecret, pskSecret);
    s.welcomeSecret = DeriveSecret(memberPrk, "welcome");
    s.epochSecret = ExpandWithLabel(memberPrk, "epoch", encodedGroupContext, primitives::kHashSize);
    s.senderDataSecret = DeriveSecret(s.epochSecret, "sender data");
    s.encryptionSecret = DeriveSecret(s.epochSecret, "encryption");
    s.exporterSecret = DeriveSecret(s.epochSecret, "exporter");
    s.externalSecret = DeriveSecret(s.epochSecret, "external");
    s.confirmationKey = DeriveSecret(s.epochSecret, "confirm");
    s.membershipKey = DeriveSecret(s.epochSecret, "membership");
    s.resumptionPsk = DeriveSecret(s.epochSecret, "resumption");
    s.epochAuthenticator = DeriveSecret(s.epochSecret, "authentication");
    s.initSecret = DeriveSecret(s.epochSecret, "init");
    return s;
}

EpochSecrets DeriveEpochSecrets(ByteView previousInitSecret, ByteView commitSecret, ByteView pskSecret,
                                ByteView encodedGroupContext) {
    Bytes joinerSecret = ExpandWithLabel(primitives::HkdfExtract(previousInitSecret, commitSecret), "joiner",
                                         encodedGroupContext, primitives::kHashSize);
    return DeriveEpochSecretsFromJoiner(joinerSecret, pskSecret, encodedGroupContext);
}

WelcomeKey DeriveWelcomeKey(ByteView welcomeSecret) {
    return WelcomeKey{ExpandWithLabel(welcomeSecret, "key", {}, primitives::kAeadKeySize),
                      ExpandWithLabel(welcomeSecret, "nonce", {}, primitives::kAeadNonceSize)};
}

Bytes MlsExporter(ByteView exporterSecret, ByteView label, ByteView context, std::size_t length) {
    // DeriveSecret takes a text label; the exporter's label is arbitrary bytes, so build the string byte for byte.
    std::string labelText(label.begin(), label.end());
    Bytes secret = DeriveSecret(exporterSecret, labelText);
    return ExpandWithLabel(secret, "exported", primitives::Sha256(context), length);
}

}  // namespace svcpp::core::mls
