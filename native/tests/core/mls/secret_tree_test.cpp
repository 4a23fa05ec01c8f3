// The secret tree and hash ratchets (RFC 9420 §9) against the `secret-tree` vectors, and tree math (Appendix C)
// against `tree-math`.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "mls/secret_tree.hpp"
#include "mls/tree_math.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::HexField;
using test::ToHex;

TEST(SecretTree, LeafRatchetsMatchTheVectors) {
    std::size_t checked = 0;
    for (const auto &v : test::LoadVectors("secret-tree.json")) {
        const auto &leaves = v.at("leaves");
        uint32_t leafCount = static_cast<uint32_t>(leaves.size());
        for (uint32_t leaf = 0; leaf < leafCount; ++leaf) {
            SCOPED_TRACE("leaves " + std::to_string(leafCount) + " leaf " + std::to_string(leaf));
            LeafRatchets ratchets = DeriveLeafRatchets(HexField(v, "encryption_secret"), leafCount, leaf);
            for (const auto &g : leaves.at(leaf)) {
                uint32_t generation = g.at("generation");
                const auto &handshake = ratchets.handshake.Get(generation);
                const auto &application = ratchets.application.Get(generation);
                EXPECT_EQ(ToHex(handshake.key), g.at("handshake_key"));
                EXPECT_EQ(ToHex(handshake.nonce), g.at("handshake_nonce"));
                EXPECT_EQ(ToHex(application.key), g.at("application_key"));
                EXPECT_EQ(ToHex(application.nonce), g.at("application_nonce"));
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 40u);
}

TEST(SecretTree, SenderDataKeyMatchesTheVectors) {
    for (const auto &v : test::LoadVectors("secret-tree.json")) {
        const auto &s = v.at("sender_data");
        SenderDataKey key = DeriveSenderDataKey(HexField(s, "sender_data_secret"), HexField(s, "ciphertext"));
        EXPECT_EQ(ToHex(key.key), s.at("key"));
        EXPECT_EQ(ToHex(key.nonce), s.at("nonce"));
    }
}

TEST(SecretTree, AnErasedGenerationCannotBeRecomputed) {
    HashRatchet ratchet(Bytes(32, 7));
    Bytes key5 = ratchet.Get(5).key;
    EXPECT_EQ(ratchet.Get(5).key, key5);  // cached until erased
    ratchet.Erase(5);
    ratchet.Erase(2);
    EXPECT_THROW(ratchet.Get(5), Error);
    EXPECT_THROW(ratchet.Get(2), Error);
    EXPECT_NO_THROW(ratchet.Get(3));  // skipped generations stay available until erased
    EXPECT_THROW(DeriveLeafRatchets(Bytes(32, 1), 4, 4), Error);
}

TEST(TreeMath, MatchesTheVectors) {
    for (const auto &v : test::LoadVectors("tree-math.json")) {
        uint32_t n = v.at("n_leaves");
        SCOPED_TRACE("n_leaves " + std::to_string(n));
        EXPECT_EQ(tree_math::NodeWidth(n), v.at("n_nodes").get<uint32_t>());
        EXPECT_EQ(tree_math::Root(n), v.at("root").get<uint32_t>());
        for (uint32_t x = 0; x < tree_math::NodeWidth(n); ++x) {
            const auto &left = v.at("left").at(x);
            if (left.is_null()) {
                EXPECT_THROW(tree_math::Left(x), Error);
            } else {
                EXPECT_EQ(tree_math::Left(x), left.get<uint32_t>());
                EXPECT_EQ(tree_math::Right(x), v.at("right").at(x).get<uint32_t>());
            }
            const auto &parent = v.at("parent").at(x);
            if (parent.is_null()) {
                EXPECT_THROW(tree_math::Parent(x, n), Error);
            } else {
                EXPECT_EQ(tree_math::Parent(x, n), parent.get<uint32_t>());
                EXPECT_EQ(tree_math::Sibling(x, n), v.at("sibling").at(x).get<uint32_t>());
            }
            // IsAncestor agrees with the vectors' parent chains: every node above x and nothing else.
            std::vector<uint32_t> chain;
            for (uint32_t a = x; a != tree_math::Root(n);) chain.push_back(a = v.at("parent").at(a).get<uint32_t>());
            for (uint32_t other = 0; other < tree_math::NodeWidth(n); ++other) {
                bool expected = std::find(chain.begin(), chain.end(), other) != chain.end();
                EXPECT_EQ(tree_math::IsAncestor(other, x), expected) << other << " above " << x;
            }
        }
    }
}
