#include "mls/update_path.hpp"

#include <algorithm>

#include "mls/hpke.hpp"
#include "mls/tree_math.hpp"

namespace svcpp::core::mls {
namespace {

constexpr std::string_view kPathLabel = "UpdatePathNode";

// The resolution the committer encrypts to: the copath child's, minus the leaves this commit adds.
std::vector<uint32_t> EncryptionTargets(const RatchetTree &tree, uint32_t pathNode, uint32_t committer,
                                        const std::vector<uint32_t> &newLeaves) {
    std::vector<uint32_t> targets = tree.Resolution(RatchetTree::CopathChild(pathNode, committer));
    std::erase_if(targets, [&](uint32_t node) {
        return node % 2 == 0 && std::find(newLeaves.begin(), newLeaves.end(), node / 2) != newLeaves.end();
    });
    return targets;
}

}  // namespace

void UpdatePath::Encode(tls::Writer &w) const {
    leafNode.Encode(w);
    w.Vector(nodes, [](tls::Writer &out, const UpdatePathNode &n) {
        out.Opaque(n.encryptionKey);
        out.Vector(n.encryptedPathSecret, [](tls::Writer &c, const HpkeCiphertext &ct) {
            c.Opaque(ct.kemOutput);
            c.Opaque(ct.ciphertext);
        });
    });
}

UpdatePath UpdatePath::Decode(tls::Reader &r) {
    UpdatePath p;
    p.leafNode = LeafNode::Decode(r);
    p.nodes = r.Vector<UpdatePathNode>([](tls::Reader &in) {
        UpdatePathNode n;
        n.encryptionKey = in.Opaque();
        n.encryptedPathSecret = in.Vector<HpkeCiphertext>([](tls::Reader &c) {
            HpkeCiphertext ct;
            ct.kemOutput = c.Opaque();
            ct.ciphertext = c.Opaque();
            return ct;
        });
        return n;
    });
    return p;
}

PathSecrets DerivePathSecrets(ByteView firstPathSecret, std::size_t nodeCount) {
    PathSecrets s;
    Bytes secret(firstPathSecret.begin(), firstPathSecret.end());
    for (std::size_t i = 0; i < nodeCount; ++i) {
        if (i > 0) secret = DeriveSecret(secret, "path");
        s.pathSecrets.push_back(secret);
        s.nodeKeys.push_back(hpke::DeriveKeyPair(DeriveSecret(secret, "node")));
    }
    s.commitSecret = DeriveSecret(secret, "path");
    return s;
}

CreatedPath CreatePath(RatchetTree &tree, uint32_t leaf, ByteView groupId, ByteView signaturePrivateKey) {
    const auto &current = tree.Node(tree_math::LeafToNode(leaf));
    if (!current) throw Error("update path: the committer's leaf is blank");
    CreatedPath created;
    created.filteredPath = tree.FilteredDirectPath(leaf);
    created.secrets = DerivePathSecrets(primitives::RandomBytes(primitives::kHashSize), created.filteredPath.size());
    created.leafKey = primitives::GenerateP256();
    std::vector<Bytes> publicKeys;
    for (const auto &key : created.secrets.nodeKeys) publicKeys.push_back(key.publicKey);

    LeafNode leafNode = *current->leaf;
    leafNode.encryptionKey = created.leafKey.publicKey;
    leafNode.source = LeafNodeSource::Commit;
    leafNode.notBefore = leafNode.notAfter = 0;
    leafNode.parentHash = tree.ApplyPath(leaf, publicKeys);
    leafNode.Sign(signaturePrivateKey, groupId, leaf);
    tree.SetLeaf(leaf, leafNode);

    created.path.leafNode = std::move(leafNode);
    for (const Bytes &key : publicKeys) created.path.nodes.push_back(UpdatePathNode{key, {}});
    return created;
}

void EncryptPath(CreatedPath &created, const RatchetTree &tree, uint32_t leaf, const std::vector<uint32_t> &newLeaves,
                 ByteView provisionalContext) {
    for (std::size_t i = 0; i < created.filteredPath.size(); ++i) {
        auto &ciphertexts = created.path.nodes[i].encryptedPathSecret;
        ciphertexts.clear();
        for (uint32_t target : EncryptionTargets(tree, created.filteredPath[i], leaf, newLeaves)) {
            const TreeNode &node = *tree.Node(target);
            const Bytes &key = node.leaf ? node.leaf->encryptionKey : node.parent->encryptionKey;
            ciphertexts.push_back(
                EncryptWithLabel(key, kPathLabel, provisionalContext, created.secrets.pathSecrets[i]));
        }
    }
}

void ApplyReceivedPath(RatchetTree &tree, uint32_t committer, const UpdatePath &path, ByteView groupId) {
    const LeafNode &leaf = path.leafNode;
    if (leaf.source != LeafNodeSource::Commit) throw Error("update path: the leaf node's source is not commit");
    if (!leaf.VerifySignature(groupId, committer))
        throw Error("update path: the leaf node's signature does not verify");
    // A member's identity is who it is in the call (DAVE keys media by it): a path may renew keys, never the identity.
    const auto &current = tree.Node(tree_math::LeafToNode(committer));
    if (!current || current->leaf->credential != leaf.credential) {
        throw Error("update path: the leaf node changes the committer's credential");
    }
    if (leaf.encryptionKey.size() != primitives::kPublicKeySize)
        throw Error("update path: leaf key is not a P-256 point");
    std::vector<Bytes> keys;
    for (const auto &node : path.nodes) {
        if (node.encryptionKey.size() != primitives::kPublicKeySize)
            throw Error("update path: node key is not a P-256 point");
        keys.push_back(node.encryptionKey);
    }
    // §7.3: every encryption key in the tree is distinct (a reused key would let one secret open two nodes).
    for (uint32_t n = 0; n < tree.NodeCount(); ++n) {
        const auto &existing = tree.Node(n);
        if (!existing || n == tree_math::LeafToNode(committer)) continue;
        const Bytes &key = existing->leaf ? existing->leaf->encryptionKey : existing->parent->encryptionKey;
        if (key == leaf.encryptionKey) throw Error("update path: the leaf's encryption key is already in the tree");
    }
    if (tree.FilteredDirectPath(committer).size() != keys.size()) {
        throw Error("update path: the path's length does not match the committer's filtered direct path");
    }
    Bytes parentHash = tree.ApplyPath(committer, keys);
    if (leaf.parentHash != parentHash) throw Error("update path: the leaf's parent hash does not verify");
    tree.SetLeaf(committer, leaf);
}

std::optional<std::size_t> CommonAncestorIndex(const std::vector<uint32_t> &filteredPath, uint32_t leaf, uint32_t) {
    for (std::size_t i = 0; i < filteredPath.size(); ++i) {
        if (tree_math::IsAncestor(filteredPath[i], tree_math::LeafToNode(leaf))) return i;
    }
    return std::nullopt;
}

DecryptedPath DecryptPath(const RatchetTree &tree, uint32_t committer, uint32_t ownLeaf, const UpdatePath &path,
                          const std::vector<uint32_t> &newLeaves, const std::map<uint32_t, Bytes> &privateKeys,
                          ByteView provisionalContext) {
    std::vector<uint32_t> filtered = tree.FilteredDirectPath(committer);
    auto index = CommonAncestorIndex(filtered, ownLeaf, tree.LeafCount());
    if (!index) throw Error("update path: no common ancestor with the committer");
    std::vector<uint32_t> targets = EncryptionTargets(tree, filtered[*index], committer, newLeaves);
    const auto &ciphertexts = path.nodes.at(*index).encryptedPathSecret;
    if (ciphertexts.size() != targets.size()) throw Error("update path: wrong number of encrypted path secrets");
    std::optional<Bytes> pathSecret;
    for (std::size_t i = 0; i < targets.size() && !pathSecret; ++i) {
        auto key = privateKeys.find(targets[i]);
        if (key == privateKeys.end()) continue;
        pathSecret = DecryptWithLabel(key->second, kPathLabel, provisionalContext, ciphertexts[i]);
    }
    if (!pathSecret) throw Error("update path: we hold no key for the copath resolution");
    DecryptedPath out;
    out.nodes.assign(filtered.begin() + static_cast<std::ptrdiff_t>(*index), filtered.end());
    out.secrets = DerivePathSecrets(*pathSecret, out.nodes.size());
    for (std::size_t i = 0; i < out.nodes.size(); ++i) {
        if (out.secrets.nodeKeys[i].publicKey != path.nodes[*index + i].encryptionKey) {
            throw Error("update path: a derived public key does not match the path");
        }
    }
    return out;
}

std::map<uint32_t, Bytes> DeriveJoinerPathKeys(const RatchetTree &tree, uint32_t committer, uint32_t ownLeaf,
                                               ByteView pathSecret) {
    std::vector<uint32_t> filtered = tree.FilteredDirectPath(committer);
    auto index = CommonAncestorIndex(filtered, ownLeaf, tree.LeafCount());
    if (!index) throw Error("welcome: the path secret has no common ancestor with the committer");
    PathSecrets secrets = DerivePathSecrets(pathSecret, filtered.size() - *index);
    std::map<uint32_t, Bytes> keys;
    for (std::size_t i = 0; i < secrets.nodeKeys.size(); ++i) {
        uint32_t node = filtered[*index + i];
        const auto &n = tree.Node(node);
        if (!n || !n->parent || n->parent->encryptionKey != secrets.nodeKeys[i].publicKey) {
            throw Error("welcome: a key derived from the path secret does not match the tree");
        }
        keys[node] = secrets.nodeKeys[i].privateKey;
    }
    return keys;
}

}  // namespace svcpp::core::mls
