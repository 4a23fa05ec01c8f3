// UpdatePath (RFC 9420 §7.5, §7.6, §12.4.2): the committer replaces its leaf and the keys of its filtered direct
// path, and encrypts each new node's path secret to the resolution of that node's copath child, so every other
// member can decrypt exactly one path secret — at its lowest common ancestor with the committer — and derive the rest
// up to the root, and from the root's the commit secret.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/cipher_suite.hpp"
#include "mls/key_package.hpp"
#include "mls/primitives.hpp"
#include "mls/ratchet_tree.hpp"
#include "mls/tls_codec.hpp"

namespace svcpp::core::mls {

struct UpdatePathNode {
    Bytes encryptionKey;
    /** One ciphertext per node of the copath child's resolution (new members excluded), in resolution order. */
    std::vector<HpkeCiphertext> encryptedPathSecret;
};

struct UpdatePath {
    LeafNode leafNode;
    std::vector<UpdatePathNode> nodes;

    void Encode(tls::Writer &w) const;
    static UpdatePath Decode(tls::Reader &r);
};

/** §7.4: the secrets and keys of a filtered direct path, from the path secret of its first node up. */
struct PathSecrets {
    std::vector<Bytes> pathSecrets;             // one per node, bottom-up
    std::vector<primitives::KeyPair> nodeKeys;  // KEM.DeriveKeyPair(DeriveSecret(path_secret, "node"))
    Bytes commitSecret;                         // DeriveSecret(last path secret, "path")
};
PathSecrets DerivePathSecrets(ByteView firstPathSecret, std::size_t nodeCount);

/** What the committer keeps of the path it created. */
struct CreatedPath {
    UpdatePath path;
    std::vector<uint32_t> filteredPath;  // the nodes the path's keys went to, bottom-up
    PathSecrets secrets;
    primitives::KeyPair leafKey;  // the new leaf's HPKE key pair
};

/**
 * Committer side, on `tree` with the commit's proposals already applied: draws a fresh leaf key and path secrets,
 * applies the path to `tree` (keys, parent hashes, the new leaf signed with `signaturePrivateKey`), and returns the
 * path. The path secrets are encrypted only after the provisional GroupContext is known, with `EncryptPath`.
 */
CreatedPath CreatePath(RatchetTree &tree, uint32_t leaf, ByteView groupId, ByteView signaturePrivateKey);
/**
 * Encrypts each node's path secret to its copath child's resolution, leaving out `newLeaves` (members the commit adds:
 * they learn their secret from the Welcome). `provisionalContext` is the encoded GroupContext of the new epoch
 * before its transcript hash is updated (§12.4.2).
 */
void EncryptPath(CreatedPath &created, const RatchetTree &tree, uint32_t leaf, const std::vector<uint32_t> &newLeaves,
                 ByteView provisionalContext);

/**
 * Receiver side, on `tree` with the commit's proposals already applied: checks the path's shape (one node per node
 * of the committer's filtered direct path, a commit-source leaf whose signature verifies and whose credential is the
 * committer's current one), applies it to `tree` and checks the new leaf's parent hash. Throws Error on any failure.
 */
void ApplyReceivedPath(RatchetTree &tree, uint32_t committer, const UpdatePath &path, ByteView groupId);

/** The path secret a member decrypted and where it sits. */
struct DecryptedPath {
    std::vector<uint32_t> nodes;  // the committer's filtered direct path from our common ancestor up
    PathSecrets secrets;
};
/**
 * Receiver side, after ApplyReceivedPath: finds the node of our common ancestor with the committer, decrypts its path
 * secret with a private key we hold (`privateKeys` by node index: our leaf's and parents' we know), derives the path
 * above it and checks every derived public key against the path's. `newLeaves` are the leaves the commit added
 * (excluded from the resolutions the committer encrypted to). Throws Error when nothing decrypts or a key differs.
 */
DecryptedPath DecryptPath(const RatchetTree &tree, uint32_t committer, uint32_t ownLeaf, const UpdatePath &path,
                          const std::vector<uint32_t> &newLeaves, const std::map<uint32_t, Bytes> &privateKeys,
                          ByteView provisionalContext);

/**
 * A joiner's side (§12.4.3.1): the Welcome's path secret belongs to the lowest node of the committer's filtered direct
 * path above `ownLeaf`; derives that node's and its ancestors' keys, checks them against the tree, and returns them by
 * node index. Throws Error when a derived key does not match the tree.
 */
std::map<uint32_t, Bytes> DeriveJoinerPathKeys(const RatchetTree &tree, uint32_t committer, uint32_t ownLeaf,
                                               ByteView pathSecret);

/** The lowest node of `committer`'s filtered direct path that is an ancestor of `leaf`; nullopt when none. */
std::optional<std::size_t> CommonAncestorIndex(const std::vector<uint32_t> &filteredPath, uint32_t leaf,
                                               uint32_t leafCount);

}  // namespace svcpp::core::mls
