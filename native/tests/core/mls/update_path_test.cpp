// UpdatePath (RFC 9420 §7.5, §7.6) against the `treekem` vectors of mlswg/mls-implementations (suite 2): every
// member decrypts the published path secret and commit secret from each published UpdatePath, the merged tree has
// the published tree hash, and a path svcpp creates on the same tree is decrypted by every other member to the same
// commit secret.
#include <gtest/gtest.h>

#include <map>

#include "mls/cipher_suite.hpp"
#include "mls/hpke.hpp"
#include "mls/key_schedule.hpp"
#include "mls/update_path.hpp"
#include "vectors.hpp"

namespace svcpp::core::mls {
namespace {

using test::HexField;

struct TreeKemCase {
    RatchetTree tree;
    Bytes groupId;
    GroupContext context;                                       // tree hash filled per path
    std::map<uint32_t, std::map<uint32_t, Bytes>> privateKeys;  // leaf → node → private key
    std::map<uint32_t, Bytes> signatureKeys;
};

TreeKemCase Load(const nlohmann::json &v) {
    TreeKemCase c;
    c.tree = RatchetTree::Decode(HexField(v, "ratchet_tree"));
    c.groupId = HexField(v, "group_id");
    c.context.groupId = c.groupId;
    c.context.epoch = v.at("epoch").get<uint64_t>();
    c.context.confirmedTranscriptHash = HexField(v, "confirmed_transcript_hash");
    for (const auto &leaf : v.at("leaves_private")) {
        uint32_t index = leaf.at("index").get<uint32_t>();
        auto &keys = c.privateKeys[index];
        keys[2 * index] = HexField(leaf, "encryption_priv");
        for (const auto &ps : leaf.at("path_secrets")) {
            keys[ps.at("node").get<uint32_t>()] =
                hpke::DeriveKeyPair(DeriveSecret(HexField(ps, "path_secret"), "node")).privateKey;
        }
        c.signatureKeys[index] = HexField(leaf, "signature_priv");
    }
    return c;
}

UpdatePath DecodePath(ByteView bytes) {
    tls::Reader r(bytes);
    UpdatePath p = UpdatePath::Decode(r);
    r.ExpectEnd();
    return p;
}

TEST(TreeKem, PrivateStatesMatchTheTree) {
    for (const auto &v : test::LoadVectors("treekem.json")) {
        TreeKemCase c = Load(v);
        for (const auto &[leaf, keys] : c.privateKeys) {
            for (const auto &[node, key] : keys) {
                const auto &n = c.tree.Node(node);
                ASSERT_TRUE(n.has_value()) << "node " << node;
                const Bytes &pub = n->leaf ? n->leaf->encryptionKey : n->parent->encryptionKey;
                EXPECT_EQ(primitives::P256PublicFromPrivate(key), pub) << "leaf " << leaf << " node " << node;
            }
        }
    }
}

TEST(TreeKem, EveryMemberDecryptsThePublishedPaths) {
    int checked = 0;
    for (const auto &v : test::LoadVectors("treekem.json")) {
        TreeKemCase c = Load(v);
        for (const auto &up : v.at("update_paths")) {
            uint32_t sender = up.at("sender").get<uint32_t>();
            UpdatePath path = DecodePath(HexField(up, "update_path"));
            RatchetTree tree = c.tree;
            ApplyReceivedPath(tree, sender, path, c.groupId);
            EXPECT_EQ(tree.RootTreeHash(), HexField(up, "tree_hash_after"));
            EXPECT_TRUE(tree.VerifyParentHashes());
            GroupContext context = c.context;
            context.treeHash = tree.RootTreeHash();
            const auto &secrets = up.at("path_secrets");
            for (const auto &[leaf, keys] : c.privateKeys) {
                if (leaf == sender || secrets.at(leaf).is_null()) continue;
                DecryptedPath d = DecryptPath(tree, sender, leaf, path, {}, keys, context.Encode());
                EXPECT_EQ(d.secrets.pathSecrets.front(), test::Hex(secrets.at(leaf).get<std::string>()));
                EXPECT_EQ(d.secrets.commitSecret, HexField(up, "commit_secret"));
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 100);
}

TEST(TreeKem, PathsSvcppCreatesAreDecryptedByEveryMember) {
    for (const auto &v : test::LoadVectors("treekem.json")) {
        TreeKemCase c = Load(v);
        for (const auto &up : v.at("update_paths")) {
            uint32_t sender = up.at("sender").get<uint32_t>();
            RatchetTree committerTree = c.tree;
            CreatedPath created = CreatePath(committerTree, sender, c.groupId, c.signatureKeys.at(sender));
            GroupContext context = c.context;
            context.treeHash = committerTree.RootTreeHash();
            EncryptPath(created, committerTree, sender, {}, context.Encode());
            EXPECT_TRUE(committerTree.VerifyParentHashes());

            tls::Writer encoded;
            created.path.Encode(encoded);
            UpdatePath received = DecodePath(encoded.Bytes());
            for (const auto &[leaf, keys] : c.privateKeys) {
                if (leaf == sender) continue;
                RatchetTree tree = c.tree;
                ApplyReceivedPath(tree, sender, received, c.groupId);
                ASSERT_EQ(tree.RootTreeHash(), committerTree.RootTreeHash());
                DecryptedPath d = DecryptPath(tree, sender, leaf, received, {}, keys, context.Encode());
                EXPECT_EQ(d.secrets.commitSecret, created.secrets.commitSecret);
            }
        }
    }
}

TEST(TreeKem, RejectsATamperedPath) {
    const auto v = test::LoadVectors("treekem.json").at(1);
    TreeKemCase c = Load(v);
    const auto &up = v.at("update_paths").at(0);
    uint32_t sender = up.at("sender").get<uint32_t>();
    UpdatePath path = DecodePath(HexField(up, "update_path"));

    UpdatePath wrongKey = path;  // a node key that no longer matches the leaf's parent hash
    wrongKey.nodes.back().encryptionKey = primitives::GenerateP256().publicKey;
    RatchetTree tree = c.tree;
    EXPECT_THROW(ApplyReceivedPath(tree, sender, wrongKey, c.groupId), Error);

    UpdatePath shorter = path;
    shorter.nodes.pop_back();
    tree = c.tree;
    EXPECT_THROW(ApplyReceivedPath(tree, sender, shorter, c.groupId), Error);

    UpdatePath badSignature = path;
    badSignature.leafNode.signature.back() ^= 1;
    tree = c.tree;
    EXPECT_THROW(ApplyReceivedPath(tree, sender, badSignature, c.groupId), Error);

    // A leaf that claims another identity, properly signed by the committer: refused.
    RatchetTree committerTree = c.tree;
    CreatedPath created = CreatePath(committerTree, sender, c.groupId, c.signatureKeys.at(sender));
    UpdatePath impostor = created.path;
    impostor.leafNode.credential.identity.push_back(0x01);
    impostor.leafNode.Sign(c.signatureKeys.at(sender), c.groupId, sender);
    tree = c.tree;
    EXPECT_THROW(ApplyReceivedPath(tree, sender, impostor, c.groupId), Error);
    tree = c.tree;
    EXPECT_NO_THROW(ApplyReceivedPath(tree, sender, created.path, c.groupId));

    // A ciphertext that does not open under the context.
    tree = c.tree;
    ApplyReceivedPath(tree, sender, path, c.groupId);
    GroupContext context = c.context;
    context.treeHash = tree.RootTreeHash();
    for (const auto &[leaf, keys] : c.privateKeys) {
        if (leaf == sender) continue;
        GroupContext otherContext = context;
        otherContext.epoch += 1;
        EXPECT_THROW(DecryptPath(tree, sender, leaf, path, {}, keys, otherContext.Encode()), Error);
    }
}

}  // namespace
}  // namespace svcpp::core::mls
