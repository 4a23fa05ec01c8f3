// The labelled operations of RFC 9420 §5 against the `crypto-basics` vectors (ciphersuite 2).
#include <gtest/gtest.h>

#include "mls/cipher_suite.hpp"
#include "mls/primitives.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::HexField;
using test::ToHex;

namespace {
const nlohmann::json &Vector() {
    static const nlohmann::json v = test::LoadVectors("crypto-basics.json").at(0);
    return v;
}
std::string Str(const nlohmann::json &o, const char *f) { return o.at(f).get<std::string>(); }
}  // namespace

TEST(CryptoBasics, RefHash) {
    const auto &v = Vector().at("ref_hash");
    EXPECT_EQ(ToHex(RefHash(ToBytes(Str(v, "label")), HexField(v, "value"))), v.at("out"));
}

TEST(CryptoBasics, ExpandWithLabel) {
    const auto &v = Vector().at("expand_with_label");
    EXPECT_EQ(ToHex(ExpandWithLabel(HexField(v, "secret"), Str(v, "label"), HexField(v, "context"), v.at("length"))),
              v.at("out"));
}

TEST(CryptoBasics, DeriveSecret) {
    const auto &v = Vector().at("derive_secret");
    EXPECT_EQ(ToHex(DeriveSecret(HexField(v, "secret"), Str(v, "label"))), v.at("out"));
}

TEST(CryptoBasics, DeriveTreeSecret) {
    const auto &v = Vector().at("derive_tree_secret");
    EXPECT_EQ(ToHex(DeriveTreeSecret(HexField(v, "secret"), Str(v, "label"), v.at("generation").get<uint32_t>(),
                                     v.at("length"))),
              v.at("out"));
}

TEST(CryptoBasics, VerifyWithLabelAcceptsTheVectorSignature) {
    const auto &v = Vector().at("sign_with_label");
    EXPECT_TRUE(VerifyWithLabel(HexField(v, "pub"), Str(v, "label"), HexField(v, "content"), HexField(v, "signature")));
}

TEST(CryptoBasics, SignWithLabelProducesAVerifiableSignature) {
    const auto &v = Vector().at("sign_with_label");
    // ECDSA is randomised: check our signature verifies, and that the private key matches the vector's public key.
    EXPECT_EQ(ToHex(primitives::P256PublicFromPrivate(HexField(v, "priv"))), v.at("pub"));
    Bytes signature = SignWithLabel(HexField(v, "priv"), Str(v, "label"), HexField(v, "content"));
    EXPECT_TRUE(VerifyWithLabel(HexField(v, "pub"), Str(v, "label"), HexField(v, "content"), signature));
}

TEST(CryptoBasics, VerifyWithLabelRejectsWrongLabelContentOrSignature) {
    const auto &v = Vector().at("sign_with_label");
    Bytes content = HexField(v, "content");
    Bytes signature = HexField(v, "signature");
    EXPECT_FALSE(VerifyWithLabel(HexField(v, "pub"), "OtherLabel", content, signature));
    content[0] ^= 1;
    EXPECT_FALSE(VerifyWithLabel(HexField(v, "pub"), Str(v, "label"), content, signature));
    EXPECT_FALSE(VerifyWithLabel(HexField(v, "pub"), Str(v, "label"), HexField(v, "content"), Bytes{0x30, 0x00}));
    EXPECT_FALSE(VerifyWithLabel(Bytes{0x04, 0x01}, Str(v, "label"), HexField(v, "content"), signature));
}

TEST(CryptoBasics, DecryptWithLabelOpensTheVectorCiphertext) {
    const auto &v = Vector().at("encrypt_with_label");
    HpkeCiphertext ct{HexField(v, "kem_output"), HexField(v, "ciphertext")};
    EXPECT_EQ(ToHex(DecryptWithLabel(HexField(v, "priv"), Str(v, "label"), HexField(v, "context"), ct)),
              v.at("plaintext"));
}

TEST(CryptoBasics, EncryptWithLabelRoundTripsAndBindsTheContext) {
    const auto &v = Vector().at("encrypt_with_label");
    HpkeCiphertext ct =
        EncryptWithLabel(HexField(v, "pub"), Str(v, "label"), HexField(v, "context"), HexField(v, "plaintext"));
    EXPECT_EQ(ToHex(DecryptWithLabel(HexField(v, "priv"), Str(v, "label"), HexField(v, "context"), ct)),
              v.at("plaintext"));
    EXPECT_THROW(DecryptWithLabel(HexField(v, "priv"), "OtherLabel", HexField(v, "context"), ct), Error);
}
