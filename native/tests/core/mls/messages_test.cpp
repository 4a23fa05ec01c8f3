// Encodings against the `messages` vectors of mlswg/mls-implementations: the structures this library decodes
// (KeyPackage as an MLSMessage and as an Add proposal's body, the ratchet_tree extension)
// decode and re-encode byte for byte. These vectors hold random structures of suite 1, so only encoding is checked,
// not signatures.
#include <gtest/gtest.h>

#include "mls/key_package.hpp"
#include "mls/ratchet_tree.hpp"
#include "mls/tls_codec.hpp"
#include "vectors.hpp"

namespace svcpp::core::mls {
namespace {

using test::HexField;

TEST(MessagesVectors, KeyPackagesRoundTrip) {
    int checked = 0;
    for (const auto &v : test::LoadVectors("messages.json")) {
        Bytes message = HexField(v, "mls_key_package");
        tls::Reader r(message);
        ASSERT_EQ(r.U16(), 1);  // mls10
        ASSERT_EQ(r.U16(), 5);  // mls_key_package
        KeyPackage kp = KeyPackage::Read(r);
        r.ExpectEnd();
        EXPECT_EQ(kp.Encode(), Bytes(message.begin() + 4, message.end()));

        Bytes add = HexField(v, "add_proposal");
        EXPECT_EQ(KeyPackage::Decode(add).Encode(), add);
        ++checked;
    }
    EXPECT_EQ(checked, 20);
}

TEST(MessagesVectors, RatchetTreesRoundTrip) {
    for (const auto &v : test::LoadVectors("messages.json")) {
        Bytes tree = HexField(v, "ratchet_tree");
        EXPECT_EQ(RatchetTree::Decode(tree).Encode(), tree);
    }
}

}  // namespace
}  // namespace svcpp::core::mls
