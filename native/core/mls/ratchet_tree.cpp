#include "mls/ratchet_tree.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"
#include "mls/tree_math.hpp"

namespace svcpp::core::mls {
namespace {

constexpr uint8_t kNodeTypeLeaf = 1;
constexpr uint8_t kNodeTypeParent = 2;

void EncodeParent(tls::Writer &w, const ParentNode &p) {
    w.Opaque(p.encryptionKey);
    w.Opaque(p.parentHash);
    w.Vector(p.unmergedLeaves, [](tls::Writer &out, uint32_t leaf) { out.U32(leaf); });
}

ParentNode DecodeParent(tls::Reader &r) {
    ParentNode p;
    p.encryptionKey = r.Opaque();
    p.parentHash = r.Opaque();
    p.unmergedLeaves = r.Vector<uint32_t>([](tls::Reader &in) { return in.U32(); });
    return p;
}

}  // namespace

RatchetTree RatchetTree::Decode(ByteView bytes) {
    tls::Reader outer(bytes);
    tls::Reader r = outer.Sub();
    outer.ExpectEnd();
    RatchetTree tree;
    while (!r.Empty()) {
        uint32_t index = static_cast<uint32_t>(tree.nodes_.size());
        auto node = r.Optional<TreeNode>([index](tls::Reader &in) {
            uint8_t type = in.U8();
            TreeNode n;
            bool leafPosition = index % 2 == 0;
            if (type == kNodeTypeLeaf && leafPosition) {
                n.leaf = LeafNode::Decode(in);
            } else if (type == kNodeTypeParent && !leafPosition) {
                n.parent = DecodeParent(in);
            } else {
                throw DecodeError("ratchet tree: node " + std::to_string(index) + " has the wrong type");
            }
            return n;
        });
        tree.nodes_.push_back(std::move(node));
    }
    if (tree.nodes_.empty() || tree.nodes_.size() % 2 == 0) throw DecodeError("ratchet tree: node count must be odd");
    if (!tree.nodes_.back()) throw DecodeError("ratchet tree: the last node must not be blank");
    // Extend to full width: the leaf count is the next power of two (§7.8, trailing blanks are omitted on the wire).
    uint32_t leaves = static_cast<uint32_t>((tree.nodes_.size() + 1) / 2);
    tree.leafCount_ = std::bit_ceil(leaves);
    tree.nodes_.resize(tree_math::NodeWidth(tree.leafCount_));
    // §7.9.2 / §12.4.3.1: an unmerged leaf is a member below the parent that lists it (resolutions and hashes index
    // the tree with these values).
    for (uint32_t node = 1; node < tree.nodes_.size(); node += 2) {
        if (!tree.nodes_[node]) continue;
        for (uint32_t leaf : tree.nodes_[node]->parent->unmergedLeaves) {
            uint32_t leafNode = tree_math::LeafToNode(leaf);
            if (leaf >= tree.leafCount_ || !tree_math::IsAncestor(node, leafNode) || !tree.nodes_[leafNode]) {
                throw DecodeError("ratchet tree: node " + std::to_string(node) +
                                  " lists an unmerged leaf that is not a member below it");
            }
        }
    }
    return tree;
}

Bytes RatchetTree::Encode() const {
    std::size_t last = nodes_.size();
    while (last > 0 && !nodes_[last - 1]) --last;
    tls::Writer body;
    for (std::size_t i = 0; i < last; ++i) {
        body.Optional(nodes_[i], [](tls::Writer &w, const TreeNode &n) {
            if (n.leaf) {
                w.U8(kNodeTypeLeaf);
                n.leaf->Encode(w);
            } else {
                w.U8(kNodeTypeParent);
                EncodeParent(w, *n.parent);
            }
        });
    }
    tls::Writer w;
    w.Opaque(body.Bytes());
    return w.Take();
}

std::vector<uint32_t> RatchetTree::Resolution(uint32_t node) const {
    if (node >= nodes_.size()) throw Error("ratchet tree: node outside the tree");
    if (const auto &n = nodes_[node]) {
        std::vector<uint32_t> out = {node};
        if (n->parent) {
            for (uint32_t leaf : n->parent->unmergedLeaves) out.push_back(tree_math::LeafToNode(leaf));
        }
        return out;
    }
    if (tree_math::Level(node) == 0) return {};
    std::vector<uint32_t> out = Resolution(tree_math::Left(node));
    std::vector<uint32_t> right = Resolution(tree_math::Right(node));
    out.insert(out.end(), right.begin(), right.end());
    return out;
}

Bytes RatchetTree::TreeHash(uint32_t node) const { return TreeHashWithout(node, {}); }

Bytes RatchetTree::TreeHashWithout(uint32_t node, const std::vector<uint32_t> &removed) const {
    if (node >= nodes_.size()) throw Error("ratchet tree: node outside the tree");
    auto isRemoved = [&removed](uint32_t leaf) {
        return std::find(removed.begin(), removed.end(), leaf) != removed.end();
    };
    tls::Writer w;
    const auto &n = nodes_[node];
    if (tree_math::Level(node) == 0) {
        bool present = n && !isRemoved(node / 2);
        w.U8(kNodeTypeLeaf);
        w.U32(node / 2);
        w.U8(present ? 1 : 0);
        if (present) n->leaf->Encode(w);
    } else {
        w.U8(kNodeTypeParent);
        w.U8(n ? 1 : 0);
        if (n) {
            ParentNode parent = *n->parent;
            std::erase_if(parent.unmergedLeaves, isRemoved);
            EncodeParent(w, parent);
        }
        w.Opaque(TreeHashWithout(tree_math::Left(node), removed));
        w.Opaque(TreeHashWithout(tree_math::Right(node), removed));
    }
    return primitives::Sha256(w.Bytes());
}

bool RatchetTree::VerifyParentHashes() const {
    for (uint32_t node = 1; node < nodes_.size(); node += 2) {
        const auto &n = nodes_[node];
        if (!n) continue;
        const ParentNode &parent = *n->parent;
        bool valid = false;
        for (bool leftChild : {true, false}) {
            uint32_t child = leftChild ? tree_math::Left(node) : tree_math::Right(node);
            uint32_t sibling = leftChild ? tree_math::Right(node) : tree_math::Left(node);
            tls::Writer input;  // ParentHashInput
            input.Opaque(parent.encryptionKey);
            input.Opaque(parent.parentHash);
            input.Opaque(TreeHashWithout(sibling, parent.unmergedLeaves));
            Bytes expected = primitives::Sha256(input.Bytes());
            for (uint32_t d : Resolution(child)) {
                const TreeNode &descendant = *nodes_[d];
                const Bytes *hash =
                    descendant.parent
                        ? &descendant.parent->parentHash
                        : (descendant.leaf->source == LeafNodeSource::Commit ? &descendant.leaf->parentHash : nullptr);
                if (hash && *hash == expected) valid = true;
            }
        }
        if (!valid) return false;
    }
    return true;
}

uint32_t RatchetTree::AddLeaf(LeafNode leaf) {
    uint32_t index = 0;
    while (index < leafCount_ && nodes_[tree_math::LeafToNode(index)]) ++index;
    if (index == leafCount_) {
        leafCount_ *= 2;
        nodes_.resize(tree_math::NodeWidth(leafCount_));
    }
    uint32_t node = tree_math::LeafToNode(index);
    nodes_[node] = TreeNode{std::move(leaf), std::nullopt};
    uint32_t root = tree_math::Root(leafCount_);
    while (node != root) {
        node = tree_math::Parent(node, leafCount_);
        if (nodes_[node]) nodes_[node]->parent->unmergedLeaves.push_back(index);
    }
    return index;
}

void RatchetTree::RemoveLeaf(uint32_t leaf) {
    if (leaf >= leafCount_ || !nodes_[tree_math::LeafToNode(leaf)]) throw Error("ratchet tree: no member at that leaf");
    uint32_t node = tree_math::LeafToNode(leaf);
    nodes_[node].reset();
    uint32_t root = tree_math::Root(leafCount_);
    while (node != root) {
        node = tree_math::Parent(node, leafCount_);
        nodes_[node].reset();
    }
    // Halve while the right half holds no member (its parents are blank too, being above blank leaves only or
    // blanked above). A tree keeps at least one leaf.
    while (leafCount_ > 1) {
        bool rightHalfEmpty = true;
        for (uint32_t l = leafCount_ / 2; l < leafCount_; ++l) {
            if (nodes_[tree_math::LeafToNode(l)]) rightHalfEmpty = false;
        }
        if (!rightHalfEmpty) break;
        leafCount_ /= 2;
        nodes_.resize(tree_math::NodeWidth(leafCount_));
    }
}

RatchetTree RatchetTree::WithSingleLeaf(LeafNode leaf) {
    RatchetTree tree;
    tree.leafCount_ = 1;
    tree.nodes_.resize(1);
    tree.nodes_[0] = TreeNode{std::move(leaf), std::nullopt};
    return tree;
}

std::vector<uint32_t> RatchetTree::FilteredDirectPath(uint32_t leaf) const {
    if (leaf >= leafCount_) throw Error("ratchet tree: leaf outside the tree");
    std::vector<uint32_t> path;
    uint32_t node = tree_math::LeafToNode(leaf);
    uint32_t root = tree_math::Root(leafCount_);
    while (node != root) {
        node = tree_math::Parent(node, leafCount_);
        if (!Resolution(CopathChild(node, leaf)).empty()) path.push_back(node);
    }
    return path;
}

uint32_t RatchetTree::CopathChild(uint32_t ancestor, uint32_t leaf) {
    return tree_math::LeafToNode(leaf) < ancestor ? tree_math::Right(ancestor) : tree_math::Left(ancestor);
}

Bytes RatchetTree::ApplyPath(uint32_t leaf, const std::vector<Bytes> &pathKeys) {
    std::vector<uint32_t> path = FilteredDirectPath(leaf);
    if (path.size() != pathKeys.size())
        throw Error("ratchet tree: the path's length does not match the filtered direct path");
    uint32_t node = tree_math::LeafToNode(leaf);
    uint32_t root = tree_math::Root(leafCount_);
    while (node != root) {
        node = tree_math::Parent(node, leafCount_);
        nodes_[node].reset();
    }
    for (std::size_t i = 0; i < path.size(); ++i)
        nodes_[path[i]] = TreeNode{std::nullopt, ParentNode{pathKeys[i], {}, {}}};
    // Top-down (§7.9): the root's parent hash is empty; each node below carries the hash of the one above it on the
    // filtered path, over that node's key, its parent hash and the tree hash of its copath child.
    Bytes parentHash;
    for (std::size_t i = path.size(); i-- > 0;) {
        ParentNode &parent = *nodes_[path[i]]->parent;
        parent.parentHash = parentHash;
        tls::Writer input;  // ParentHashInput
        input.Opaque(parent.encryptionKey);
        input.Opaque(parent.parentHash);
        input.Opaque(TreeHash(CopathChild(path[i], leaf)));
        parentHash = primitives::Sha256(input.Bytes());
    }
    return parentHash;
}

void RatchetTree::SetLeaf(uint32_t leaf, LeafNode node) {
    if (leaf >= leafCount_) throw Error("ratchet tree: leaf outside the tree");
    nodes_[tree_math::LeafToNode(leaf)] = TreeNode{std::move(node), std::nullopt};
}

Bytes RatchetTree::RootTreeHash() const { return TreeHash(tree_math::Root(leafCount_)); }

bool RatchetTree::VerifyLeafSignatures(ByteView groupId) const {
    for (uint32_t leaf = 0; leaf < leafCount_; ++leaf) {
        const auto &n = nodes_[tree_math::LeafToNode(leaf)];
        if (n && !n->leaf->VerifySignature(groupId, leaf)) return false;
    }
    return true;
}

}  // namespace svcpp::core::mls
