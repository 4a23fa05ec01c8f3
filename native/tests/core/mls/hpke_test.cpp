// HPKE base mode against RFC 9180 Appendix A.3.1 (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM).
#include <gtest/gtest.h>

#include "mls/hpke.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::Hex;
using test::HexField;
using test::ToHex;

namespace {
const nlohmann::json &Vector() {
    static const nlohmann::json v = test::LoadVectors("hpke-base-p256-sha256-aes128gcm.json").at(0);
    return v;
}
}  // namespace

TEST(Hpke, DeriveKeyPairMatchesTheVector) {
    const auto &v = Vector();
    auto e = hpke::DeriveKeyPair(HexField(v, "ikmE"));
    EXPECT_EQ(ToHex(e.privateKey), v.at("skEm"));
    EXPECT_EQ(ToHex(e.publicKey), v.at("pkEm"));
    auto r = hpke::DeriveKeyPair(HexField(v, "ikmR"));
    EXPECT_EQ(ToHex(r.privateKey), v.at("skRm"));
    EXPECT_EQ(ToHex(r.publicKey), v.at("pkRm"));
}

TEST(Hpke, SenderSetupMatchesTheVector) {
    const auto &v = Vector();
    primitives::KeyPair ephemeral{HexField(v, "skEm"), HexField(v, "pkEm")};
    auto setup = hpke::SetupBaseS(HexField(v, "pkRm"), HexField(v, "info"), ephemeral);
    EXPECT_EQ(ToHex(setup.enc), v.at("enc"));
    EXPECT_EQ(ToHex(setup.context.Key()), v.at("key"));
    EXPECT_EQ(ToHex(setup.context.BaseNonce()), v.at("base_nonce"));
    EXPECT_EQ(ToHex(setup.context.ExporterSecret()), v.at("exporter_secret"));
}

TEST(Hpke, DecapRecoversTheSharedSecret) {
    const auto &v = Vector();
    EXPECT_EQ(ToHex(hpke::Decap(HexField(v, "enc"), HexField(v, "skRm"))), v.at("shared_secret"));
}

TEST(Hpke, SealAndOpenFollowTheVectorSequence) {
    const auto &v = Vector();
    primitives::KeyPair ephemeral{HexField(v, "skEm"), HexField(v, "pkEm")};
    auto sender = hpke::SetupBaseS(HexField(v, "pkRm"), HexField(v, "info"), ephemeral).context;
    auto receiver = hpke::SetupBaseR(HexField(v, "enc"), HexField(v, "skRm"), HexField(v, "info"));
    std::size_t checked = 0;
    for (const auto &e : v.at("encryptions")) {
        uint64_t sequence = std::stoull(e.at("sequence number").get<std::string>());
        // The vector lists selected sequence numbers; advance both contexts to each one.
        while (sender.Sequence() < sequence) receiver.Open({}, sender.Seal({}, {}));
        ASSERT_EQ(receiver.Sequence(), sequence);
        EXPECT_EQ(ToHex(sender.Seal(HexField(e, "aad"), HexField(e, "pt"))), e.at("ct"));
        EXPECT_EQ(ToHex(receiver.Open(HexField(e, "aad"), HexField(e, "ct"))), e.at("pt"));
        ++checked;
    }
    EXPECT_EQ(checked, 6u);
}

TEST(Hpke, ExportMatchesTheVector) {
    const auto &v = Vector();
    auto receiver = hpke::SetupBaseR(HexField(v, "enc"), HexField(v, "skRm"), HexField(v, "info"));
    for (const auto &e : v.at("exports")) {
        std::size_t length = std::stoul(e.at("L").get<std::string>());
        EXPECT_EQ(ToHex(receiver.Export(HexField(e, "exporter_context"), length)), e.at("exported_value"));
    }
}

TEST(Hpke, OpenRejectsATamperedCiphertextAndKeepsItsSequence) {
    auto recipient = primitives::GenerateP256();
    auto sealed = hpke::SealBase(recipient.publicKey, Hex("01"), Hex("02"), Hex("deadbeef"));
    EXPECT_EQ(ToHex(hpke::OpenBase(sealed.enc, recipient.privateKey, Hex("01"), Hex("02"), sealed.ciphertext)),
              "deadbeef");
    sealed.ciphertext[0] ^= 1;
    EXPECT_THROW(hpke::OpenBase(sealed.enc, recipient.privateKey, Hex("01"), Hex("02"), sealed.ciphertext), Error);
    auto context = hpke::SetupBaseR(sealed.enc, recipient.privateKey, Hex("01"));
    EXPECT_THROW(context.Open(Hex("02"), sealed.ciphertext), Error);
    EXPECT_EQ(context.Sequence(), 0u);
}

TEST(Hpke, AnEncapsulatedKeyOffTheCurveIsRejected) {
    auto recipient = primitives::GenerateP256();
    Bytes offCurve(65, 0x01);
    offCurve[0] = 0x04;
    EXPECT_THROW(hpke::Decap(offCurve, recipient.privateKey), Error);
    EXPECT_THROW(hpke::Decap(Hex("04aa"), recipient.privateKey), Error);
}
