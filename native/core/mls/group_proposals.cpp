#include "mls/group_proposals.hpp"

#include <algorithm>
#include <string>

#include "mls/external_proposal.hpp"
#include "mls/tree_math.hpp"

namespace svcpp::core::mls {

AppliedProposals ApplyProposals(RatchetTree &tree, const std::vector<ResolvedProposal> &proposals, uint32_t ownLeaf) {
    std::vector<uint32_t> removed;
    for (const auto &p : proposals) {
        if (p.type != kProposalRemove) continue;
        if (p.removed == ownLeaf) throw Error("commit: removes us");
        if (std::find(removed.begin(), removed.end(), p.removed) != removed.end()) {
            throw Error("commit: removes leaf " + std::to_string(p.removed) + " twice");
        }
        if (p.removed >= tree.LeafCount() || tree.IsBlank(tree_math::LeafToNode(p.removed))) {
            throw Error("commit: removes leaf " + std::to_string(p.removed) + ", which is not a member");
        }
        removed.push_back(p.removed);
        tree.RemoveLeaf(p.removed);
    }
    AppliedProposals applied;
    for (const auto &p : proposals) {
        if (p.type != kProposalAdd) continue;
        p.added->Validate();
        const LeafNode &leaf = p.added->leafNode;
        for (uint32_t n = 0; n < tree.NodeCount(); n += 2) {
            const auto &member = tree.Node(n);
            if (!member) continue;
            if (member->leaf->signatureKey == leaf.signatureKey)
                throw Error("commit: adds a signature key already in the group");
            if (member->leaf->encryptionKey == leaf.encryptionKey)
                throw Error("commit: adds an encryption key already in the group");
        }
        applied.newLeaves.push_back(tree.AddLeaf(leaf));
        applied.addedKeyPackages.push_back(*p.added);
    }
    return applied;
}

bool PathRequired(const std::vector<ResolvedProposal> &proposals) {
    return proposals.empty() ||
           std::any_of(proposals.begin(), proposals.end(), [](const auto &p) { return p.type == kProposalRemove; });
}

}  // namespace svcpp::core::mls
