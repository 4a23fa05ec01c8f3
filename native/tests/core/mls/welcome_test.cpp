// Welcome processing against the `welcome` vectors (suite 2): group secrets, GroupInfo decryption, its signature and
// confirmation tag; and the rejections.
#include <gtest/gtest.h>

#include "mls/group_state.hpp"
#include "mls/welcome.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::HexField;
using test::ToHex;

namespace {
// The vector's key package is an MLSMessage: version, wire format 5, then the KeyPackage.
KeyPackage VectorKeyPackage(const nlohmann::json &v) {
    Bytes message = HexField(v, "key_package");
    return KeyPackage::Decode(ByteView(message).subspan(4));
}
}  // namespace

TEST(Welcome, TheVectorWelcomeDecryptsAndVerifies) {
    const auto v = test::LoadVectors("welcome.json").at(0);
    JoinedGroup joined = ProcessWelcome(HexField(v, "welcome"), VectorKeyPackage(v), HexField(v, "init_priv"),
                                        HexField(v, "signer_pub"));
    EXPECT_EQ(joined.secrets.exporterSecret.size(), 32u);
    EXPECT_FALSE(joined.tree);  // this vector's GroupInfo carries no ratchet tree
}

TEST(Welcome, AWrongSignerKeyOrInitKeyIsRejected) {
    const auto v = test::LoadVectors("welcome.json").at(0);
    KeyPackage kp = VectorKeyPackage(v);
    EXPECT_THROW(
        ProcessWelcome(HexField(v, "welcome"), kp, HexField(v, "init_priv"), primitives::GenerateP256().publicKey),
        Error);
    EXPECT_THROW(
        ProcessWelcome(HexField(v, "welcome"), kp, primitives::GenerateP256().privateKey, HexField(v, "signer_pub")),
        Error);
    EXPECT_THROW(ProcessWelcome(HexField(v, "welcome"), kp, HexField(v, "init_priv")),
                 Error);  // no tree, no signer key
}

TEST(Welcome, AWelcomeForAnotherKeyPackageOrTamperedIsRejected) {
    const auto v = test::LoadVectors("welcome.json").at(0);
    KeyPackage other = CreateDaveKeyPackage(1, primitives::GenerateP256()).keyPackage;
    EXPECT_THROW(ProcessWelcome(HexField(v, "welcome"), other, HexField(v, "init_priv"), HexField(v, "signer_pub")),
                 Error);
    Bytes tampered = HexField(v, "welcome");
    tampered[tampered.size() - 3] ^= 1;  // inside the encrypted GroupInfo
    EXPECT_THROW(ProcessWelcome(tampered, VectorKeyPackage(v), HexField(v, "init_priv"), HexField(v, "signer_pub")),
                 Error);
    Bytes truncated = HexField(v, "welcome");
    truncated.pop_back();
    EXPECT_THROW(ProcessWelcome(truncated, VectorKeyPackage(v), HexField(v, "init_priv"), HexField(v, "signer_pub")),
                 DecodeError);
}

TEST(GroupState, NeedsTheRatchetTreeFromTheWelcome) {
    // Following commits needs the tree; this vector's Welcome has none. (Commits themselves are checked against
    // ts-mls in test/mls-interop.test.ts, the only source of groups with a tree here.)
    const auto v = test::LoadVectors("welcome.json").at(0);
    JoinedGroup joined = ProcessWelcome(HexField(v, "welcome"), VectorKeyPackage(v), HexField(v, "init_priv"),
                                        HexField(v, "signer_pub"));
    KeyPackageBundle own{VectorKeyPackage(v), HexField(v, "init_priv"), {}};
    EXPECT_THROW(GroupState::FromWelcome(joined, own, primitives::GenerateP256().privateKey), Error);
}
