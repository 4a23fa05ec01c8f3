// The ratchet tree (RFC 9420 §7) as the `ratchet_tree` extension carries it: decoding and encoding, resolution
// (§4.1.1), tree hashes (§7.8), parent-hash verification (§7.9.2) and leaf signature checks, as a joiner needs them to
// check a tree against the GroupInfo. The tree is held at full width (a power-of-two number of leaves, §7.8: trailing
// blanks are implied). Adding and removing leaves (Add/Remove proposals), and replacing a member's direct path with an
// UpdatePath's keys and parent hashes (§7.5, §7.9); the path secrets themselves are in update_path.
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
    const std::optional<TreeNode> &Node(uint32_t node) const { return nodes_.at(node); }

    /** §4.1.1: the non-blank nodes covering the subtree (a parent's unmerged leaves included). */
    std::vector<uint32_t> Resolution(uint32_t node) const;
    /** §7.8: the tree hash of the subtree under `node`. */
    Bytes TreeHash(uint32_t node) const;
    Bytes RootTreeHash() const;
    /** True when every leaf's signature verifies (update/commit leaves bound to `groupId` and their index). */
    bool VerifyLeafSignatures(ByteView groupId) const;
    /**
     * §7.9.2: every non-blank parent node is parent-hash valid — a node in the resolution of one child carries the
     * parent hash of the parent computed with the other child's original tree hash (the parent's unmerged leaves
     * removed from it).
     */
    bool VerifyParentHashes() const;

    /**
     * §12.1.1 Add: the leftmost blank leaf (the tree doubles when there is none) gets `leaf`, and the leaf joins the
     * unmerged leaves of every non-blank parent above it. Returns the new leaf index.
     */
    uint32_t AddLeaf(LeafNode leaf);
    /** §12.1.3 Remove: blanks the leaf and its direct path, then truncates trailing blank halves. */
    void RemoveLeaf(uint32_t leaf);

    /** A tree with `leaf` as its only member (leaf 0), for a group's creator. */
    static RatchetTree WithSingleLeaf(LeafNode leaf);
    /** §4.1.2: `leaf`'s direct path (parent to root) without the nodes whose copath child has an empty resolution. */
    std::vector<uint32_t> FilteredDirectPath(uint32_t leaf) const;
    /** The child of `ancestor` on the side away from `leaf` (the copath node below `ancestor`). */
    static uint32_t CopathChild(uint32_t ancestor, uint32_t leaf);
    /**
     * §7.5, §7.9: `leaf`'s direct path is blanked, then each node of its filtered direct path (`FilteredDirectPath`,
     * bottom-up) gets the matching key of `pathKeys`, no unmerged leaves, and its parent hash, chained from the root
     * down. Returns the parent hash the leaf's new LeafNode must carry (empty when the path is empty).
     * Throws Error when `pathKeys` does not match the filtered direct path's length.
     */
    Bytes ApplyPath(uint32_t leaf, const std::vector<Bytes> &pathKeys);
    /** Replaces the member at `leaf` (an UpdatePath's new leaf node). */
    void SetLeaf(uint32_t leaf, LeafNode node);

  private:
    /** The tree hash of `node`'s subtree with the leaves in `removed` treated as blank (and not unmerged). */
    Bytes TreeHashWithout(uint32_t node, const std::vector<uint32_t> &removed) const;

    std::vector<std::optional<TreeNode>> nodes_;
    uint32_t leafCount_ = 0;
};

}  // namespace svcpp::core::mls
