// Applying a commit's proposals to the ratchet tree (RFC 9420 §12.2, §12.3), the same for the committer and for
// every receiver: Removes first, then Adds (which fill the leftmost blank leaves, possibly the removed ones).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/key_package.hpp"
#include "mls/ratchet_tree.hpp"

namespace svcpp::core::mls {

struct ResolvedProposal {
    uint16_t type = 0;                // kProposalAdd or kProposalRemove
    std::optional<KeyPackage> added;  // Add
    uint32_t removed = 0;             // Remove
};

struct AppliedProposals {
    std::vector<uint32_t> newLeaves;           // where each Add landed, in proposal order
    std::vector<KeyPackage> addedKeyPackages;  // the same order
};

/**
 * Applies `proposals` to `tree`. Throws Error when a Remove names `ownLeaf` or a blank leaf, a leaf is removed twice,
 * an added KeyPackage fails validation, or an added member's signature or encryption key is already in the group.
 */
AppliedProposals ApplyProposals(RatchetTree &tree, const std::vector<ResolvedProposal> &proposals, uint32_t ownLeaf);

/** §12.4: a commit needs an UpdatePath when it is empty or holds a Remove (the only such proposal DAVE uses). */
bool PathRequired(const std::vector<ResolvedProposal> &proposals);

}  // namespace svcpp::core::mls
