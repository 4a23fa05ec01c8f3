// A passive client against the `passive-client-welcome` vectors of mlswg/mls-implementations (suite 2): a group
// member made by another implementation joins through the Welcome (tree inline, as DAVE sends it) and reaches the
// published epoch authenticator. The entries kept are those without external PSKs and with the tree in the Welcome
// (DAVE uses no PSKs and always inlines the tree).
#include <gtest/gtest.h>

#include "mls/group_state.hpp"
#include "vectors.hpp"

namespace svcpp::core::mls {
namespace {

using test::HexField;

TEST(PassiveClient, JoinsThroughWelcomesFromOtherImplementations) {
    int joined = 0;
    for (const auto &v : test::LoadVectors("passive-client-welcome.json")) {
        Bytes message = HexField(v, "key_package");
        tls::Reader r(message);
        ASSERT_EQ(r.U16(), 1);  // mls10
        ASSERT_EQ(r.U16(), 5);  // mls_key_package
        KeyPackageBundle own{KeyPackage::Read(r), HexField(v, "init_priv"), HexField(v, "encryption_priv")};
        r.ExpectEnd();
        GroupState group = GroupState::Join(HexField(v, "welcome"), own, HexField(v, "signature_priv"));
        EXPECT_EQ(group.Secrets().epochAuthenticator, HexField(v, "initial_epoch_authenticator"));
        ++joined;
    }
    EXPECT_EQ(joined, 2);
}

}  // namespace
}  // namespace svcpp::core::mls
