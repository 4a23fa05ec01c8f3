// The key schedule (RFC 9420 §8) against the `key-schedule` vectors: every epoch of the suite-2 group, chained.
#include <gtest/gtest.h>

#include "mls/hpke.hpp"
#include "mls/key_schedule.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::HexField;
using test::ToHex;

TEST(KeySchedule, EveryEpochMatchesTheVectors) {
    const auto v = test::LoadVectors("key-schedule.json").at(0);
    Bytes initSecret = HexField(v, "initial_init_secret");
    uint64_t epoch = 0;
    for (const auto &e : v.at("epochs")) {
        SCOPED_TRACE("epoch " + std::to_string(epoch));
        GroupContext context{
            HexField(v, "group_id"), epoch, HexField(e, "tree_hash"), HexField(e, "confirmed_transcript_hash"), {}};
        Bytes encoded = context.Encode();
        EXPECT_EQ(ToHex(encoded), e.at("group_context"));

        EpochSecrets s =
            DeriveEpochSecrets(initSecret, HexField(e, "commit_secret"), HexField(e, "psk_secret"), encoded);
        EXPECT_EQ(ToHex(s.joinerSecret), e.at("joiner_secret"));
        EXPECT_EQ(ToHex(s.welcomeSecret), e.at("welcome_secret"));
        EXPECT_EQ(ToHex(s.senderDataSecret), e.at("sender_data_secret"));
        EXPECT_EQ(ToHex(s.encryptionSecret), e.at("encryption_secret"));
        EXPECT_EQ(ToHex(s.exporterSecret), e.at("exporter_secret"));
        EXPECT_EQ(ToHex(s.externalSecret), e.at("external_secret"));
        EXPECT_EQ(ToHex(s.confirmationKey), e.at("confirmation_key"));
        EXPECT_EQ(ToHex(s.membershipKey), e.at("membership_key"));
        EXPECT_EQ(ToHex(s.resumptionPsk), e.at("resumption_psk"));
        EXPECT_EQ(ToHex(s.epochAuthenticator), e.at("epoch_authenticator"));
        EXPECT_EQ(ToHex(s.initSecret), e.at("init_secret"));
        EXPECT_EQ(ToHex(hpke::DeriveKeyPair(s.externalSecret).publicKey), e.at("external_pub"));
        EXPECT_EQ(ToHex(WelcomeSecret(s.joinerSecret, HexField(e, "psk_secret"))), e.at("welcome_secret"));

        const auto &x = e.at("exporter");
        // The vector's label is a string (its characters, though they look like hex), per test-vectors.md.
        EXPECT_EQ(ToHex(MlsExporter(s.exporterSecret, ToBytes(x.at("label").get<std::string>()), HexField(x, "context"),
                                    x.at("length"))),
                  x.at("secret"));

        initSecret = s.initSecret;
        ++epoch;
    }
    EXPECT_GT(epoch, 1u);
}

TEST(KeySchedule, AJoinerDerivesTheSameSecretsAsAMember) {
    const auto v = test::LoadVectors("key-schedule.json").at(0);
    const auto &e = v.at("epochs").at(0);
    GroupContext context{
        HexField(v, "group_id"), 0, HexField(e, "tree_hash"), HexField(e, "confirmed_transcript_hash"), {}};
    EpochSecrets joined =
        DeriveEpochSecretsFromJoiner(HexField(e, "joiner_secret"), HexField(e, "psk_secret"), context.Encode());
    EXPECT_EQ(ToHex(joined.exporterSecret), e.at("exporter_secret"));
    EXPECT_EQ(ToHex(joined.epochAuthenticator), e.at("epoch_authenticator"));
}
