// A member's view of a group after joining, advanced by the commits it receives (RFC 9420 §12.4.2), for the commits
// DAVE produces without an UpdatePath: proposals Add/Remove by value or by reference (the external sender's, cached
// by ProposalRef). The commit's signature and membership tag are checked, the proposals applied to the tree, the
// transcript hashes and key schedule advanced (commit_secret = 0 without a path), and the confirmation tag checked.
// Not yet: commits with an UpdatePath (which removals need), and creating commits.
#pragma once
#include <cstdint>
#include <map>

#include "mls/bytes.hpp"
#include "mls/external_proposal.hpp"
#include "mls/key_schedule.hpp"
#include "mls/ratchet_tree.hpp"
#include "mls/welcome.hpp"

namespace svcpp::core::mls {

class GroupState {
public:
    /** The state right after a successful ProcessWelcome (which must have carried the ratchet tree). */
    static GroupState FromWelcome(const JoinedGroup& joined);

    /**
     * Applies a commit (an MLSMessage PublicMessage from a member). `proposalsByRef` resolves proposals the commit
     * references. Throws Error, leaving the state unchanged, when any check fails or the commit carries a path.
     */
    void ProcessCommit(ByteView mlsMessage, const std::map<Bytes, ExternalProposal>& proposalsByRef = {});

    uint64_t Epoch() const { return context_.epoch; }
    const GroupContext& Context() const { return context_; }
    const EpochSecrets& Secrets() const { return secrets_; }
    const RatchetTree& Tree() const { return tree_; }
    uint32_t OwnLeaf() const { return ownLeaf_; }

private:
    GroupContext context_;
    RatchetTree tree_;
    uint32_t ownLeaf_ = 0;
    EpochSecrets secrets_;
    Bytes interimTranscriptHash_;
};

}  // namespace svcpp::core::mls
