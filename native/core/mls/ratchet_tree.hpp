// The ratchet tree (RFC 9420 §7) as the `ratchet_tree` extension carries it: decoding and encoding, resolution
// (§4.1.1), tree hashes (§7.8) and leaf signature checks, as a joiner needs them to check a tree against the GroupInfo.
// The tree is held at full width (a power-of-two number of leaves, §7.8: trailing blanks are implied).
// Not yet here: parent-hash verification (§7.9.2), adding/removing leaves and UpdatePath creation/application.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/key_package.hpp"

namespace svcpp::core::mls {

struct ParentNode {
    Bytes encryptionKey;
    Bytes parentHash;
    std::vector<uint32_t> unmergedLeaves;
};

/** A non-blank node: exactly one of leaf / parent is set, matching its position (leaves at even indices). */
struct TreeNode {
    std::optional<LeafNode> leaf;
    std::optional<ParentNode> parent;
};

class RatchetTree {
public:
    /** Decodes `optional<Node> ratchet_tree<V>`; throws DecodeError on malformed input or a node in the wrong place. */
    static RatchetTree Decode(ByteView bytes);
    /** The extension's encoding, trailing blank nodes omitted. */
    Bytes Encode() const;

    uint32_t LeafCount() const { return leafCount_; }
    uint32_t NodeCount() const { return static_cast<uint32_t>(nodes_.size()); }
    bool IsBlank(uint32_t node) const { return !nodes_.at(node).has_value(); }
    const std::optional<TreeNode>& Node(uint32_t node) const { return nodes_.at(node); }

    /** §4.1.1: the non-blank nodes covering the subtree (a parent's unmerged leaves included). */
    std::vector<uint32_t> Resolution(uint32_t node) const;
    /** §7.8: the tree hash of the subtree under `node`. */
    Bytes TreeHash(uint32_t node) const;
    Bytes RootTreeHash() const;
    /** True when every leaf's signature verifies (update/commit leaves bound to `groupId` and their index). */
    bool VerifyLeafSignatures(ByteView groupId) const;

private:
    std::vector<std::optional<TreeNode>> nodes_;
    uint32_t leafCount_ = 0;
};

}  // namespace svcpp::core::mls
