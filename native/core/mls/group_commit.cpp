// GroupState::Commit: the committer's side of RFC 9420 §12.4.1–§12.4.3 for DAVE's commits of the external sender's
// proposals (by reference), with an UpdatePath when a Remove requires one, and the Welcome for added members.
#include <algorithm>

#include "mls/cipher_suite.hpp"
#include "mls/commit_message.hpp"
#include "mls/group_proposals.hpp"
#include "mls/group_state.hpp"
#include "mls/group_state_internal.hpp"
#include "mls/primitives.hpp"
#include "mls/tree_math.hpp"
#include "mls/update_path.hpp"

namespace svcpp::core::mls {

CommitOutput GroupState::Commit(const std::vector<ExternalProposal> &proposals) {
    if (proposals.empty()) throw Error("commit: there are no proposals to commit");
    std::vector<ResolvedProposal> resolved;
    CommitMessage message;
    for (const ExternalProposal &p : proposals) {
        if (p.groupId != context_.groupId || p.epoch != context_.epoch)
            throw Error("commit: a proposal is for another group or epoch");
        if (std::any_of(message.proposals.begin(), message.proposals.end(),
                        [&](const auto &q) { return q.ref == p.ref; })) {
            throw Error("commit: the same proposal is listed twice");
        }
        resolved.push_back(ResolvedProposal{p.proposalType, p.added, p.removedLeaf});
        message.proposals.push_back(ProposalOrRef{true, p.ref, 0, std::nullopt, 0});
    }

    RatchetTree tree = tree_;
    AppliedProposals applied = ApplyProposals(tree, resolved, ownLeaf_);
    std::optional<CreatedPath> created;
    GroupContext next = context_;
    next.epoch = context_.epoch + 1;
    if (PathRequired(resolved)) {
        created = CreatePath(tree, ownLeaf_, context_.groupId, signaturePrivateKey_);
        next.treeHash = tree.RootTreeHash();
        EncryptPath(*created, tree, ownLeaf_, applied.newLeaves, next.Encode());
        message.path = created->path;
    }
    next.treeHash = tree.RootTreeHash();

    message.groupId = context_.groupId;
    message.epoch = context_.epoch;
    message.senderLeaf = ownLeaf_;
    Bytes framedContent = message.EncodeFramedContent();
    Bytes tbs = CommitTbs(framedContent, context_.Encode());
    message.signature = SignWithLabel(signaturePrivateKey_, "FramedContentTBS", tbs);
    next.confirmedTranscriptHash = ConfirmedTranscriptHash(interimTranscriptHash_, framedContent, message.signature);
    const Bytes zero(primitives::kHashSize, 0);
    EpochSecrets secrets =
        DeriveEpochSecrets(secrets_.initSecret, created ? created->secrets.commitSecret : zero, zero, next.Encode());
    message.confirmationTag = primitives::HmacSha256(secrets.confirmationKey, next.confirmedTranscriptHash);
    message.membershipTag = MembershipTag(secrets_.membershipKey, tbs, message.signature, message.confirmationTag);

    CommitOutput out;
    out.commit = message.Encode();
    if (!applied.newLeaves.empty()) {
        GroupInfo info;
        info.groupContext = next;
        info.extensions.push_back(Extension{kExtensionRatchetTree, tree.Encode()});
        info.confirmationTag = message.confirmationTag;
        info.signer = ownLeaf_;
        info.Sign(signaturePrivateKey_);
        std::vector<WelcomeRecipient> recipients;
        for (std::size_t i = 0; i < applied.newLeaves.size(); ++i) {
            WelcomeRecipient r{applied.addedKeyPackages[i], std::nullopt};
            if (created) {
                auto index = CommonAncestorIndex(created->filteredPath, applied.newLeaves[i], tree.LeafCount());
                if (index) r.pathSecret = created->secrets.pathSecrets[*index];
            }
            recipients.push_back(std::move(r));
        }
        out.welcome = CreateWelcome(info, secrets.joinerSecret, recipients);
    }

    auto pending = std::make_unique<Pending>(Pending{out.commit, GroupState()});
    GroupState &after = pending->next;
    after.context_ = std::move(next);
    after.externalSenders_ = externalSenders_;
    after.tree_ = std::move(tree);
    after.ownLeaf_ = ownLeaf_;
    after.signaturePrivateKey_ = signaturePrivateKey_;
    after.nodePrivateKeys_ = nodePrivateKeys_;
    if (created) {
        after.nodePrivateKeys_[tree_math::LeafToNode(ownLeaf_)] = created->leafKey.privateKey;
        for (std::size_t i = 0; i < created->filteredPath.size(); ++i) {
            after.nodePrivateKeys_[created->filteredPath[i]] = created->secrets.nodeKeys[i].privateKey;
        }
    }
    PruneKeys(after.nodePrivateKeys_, after.tree_);
    after.secrets_ = std::move(secrets);
    after.interimTranscriptHash_ =
        InterimTranscriptHash(after.context_.confirmedTranscriptHash, message.confirmationTag);
    pending_ = std::move(pending);
    return out;
}

}  // namespace svcpp::core::mls
