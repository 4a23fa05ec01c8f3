#include "mls/group_state.hpp"

#include <algorithm>
#include <string>

#include "mls/cipher_suite.hpp"
#include "mls/commit_message.hpp"
#include "mls/group_proposals.hpp"
#include "mls/group_state_internal.hpp"
#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"
#include "mls/tree_math.hpp"
#include "mls/update_path.hpp"

namespace svcpp::core::mls {
namespace {

// The GroupContext's external_senders extension (§12.1.8.1), if any: `ExternalSender external_senders<V>`.
std::vector<ExternalSender> ParseExternalSenders(ByteView extensionsBody) {
    std::vector<ExternalSender> senders;
    tls::Reader r(extensionsBody);
    while (!r.Empty()) {
        uint16_t type = r.U16();
        Bytes data = r.Opaque();
        if (type != kExtensionExternalSenders) continue;
        tls::Reader list(data);
        tls::Reader items = list.Sub();
        list.ExpectEnd();
        while (!items.Empty()) senders.push_back(ExternalSender::Read(items));
    }
    return senders;
}

// The body of the GroupContext's extension list holding only external_senders.
Bytes EncodeExternalSendersExtension(const std::vector<ExternalSender> &senders) {
    tls::Writer list;
    list.Vector(senders, [](tls::Writer &out, const ExternalSender &s) { out.Raw(s.Encode()); });
    tls::Writer body;
    body.U16(kExtensionExternalSenders);
    body.Opaque(list.Bytes());
    return body.Take();
}

}  // namespace

void PruneKeys(std::map<uint32_t, Bytes> &keys, const RatchetTree &tree) {
    std::erase_if(keys, [&](const auto &entry) {
        if (entry.first >= tree.NodeCount() || tree.IsBlank(entry.first)) return true;
        const TreeNode &node = *tree.Node(entry.first);
        const Bytes &publicKey = node.leaf ? node.leaf->encryptionKey : node.parent->encryptionKey;
        return primitives::P256PublicFromPrivate(entry.second) != publicKey;
    });
}

GroupState::GroupState(const GroupState &other)
    : context_(other.context_),
      externalSenders_(other.externalSenders_),
      tree_(other.tree_),
      ownLeaf_(other.ownLeaf_),
      signaturePrivateKey_(other.signaturePrivateKey_),
      nodePrivateKeys_(other.nodePrivateKeys_),
      secrets_(other.secrets_),
      interimTranscriptHash_(other.interimTranscriptHash_),
      pending_(other.pending_ ? std::make_unique<Pending>(*other.pending_) : nullptr) {}

GroupState &GroupState::operator=(const GroupState &other) {
    if (this != &other) *this = GroupState(other);
    return *this;
}

GroupState::GroupState(GroupState &&) noexcept = default;
GroupState &GroupState::operator=(GroupState &&) noexcept = default;
GroupState::~GroupState() = default;

GroupState GroupState::Create(ByteView groupId, const KeyPackageBundle &own, ByteView signaturePrivateKey,
                              const std::vector<ExternalSender> &externalSenders) {
    own.keyPackage.Validate();
    if (primitives::P256PublicFromPrivate(signaturePrivateKey) != own.keyPackage.leafNode.signatureKey) {
        throw Error("group: the signature key does not match the KeyPackage's");
    }
    GroupState s;
    s.signaturePrivateKey_.assign(signaturePrivateKey.begin(), signaturePrivateKey.end());
    s.externalSenders_ = externalSenders;
    s.tree_ = RatchetTree::WithSingleLeaf(own.keyPackage.leafNode);
    s.ownLeaf_ = 0;
    s.nodePrivateKeys_[0] = own.encryptionPrivateKey;
    s.context_.groupId.assign(groupId.begin(), groupId.end());
    s.context_.epoch = 0;
    s.context_.treeHash = s.tree_.RootTreeHash();
    s.context_.extensions = EncodeExternalSendersExtension(externalSenders);
    // §11: epoch 0's secrets start from a fresh random init_secret; nobody else ever sees this epoch.
    const Bytes zero(primitives::kHashSize, 0);
    s.secrets_ = DeriveEpochSecrets(primitives::RandomBytes(primitives::kHashSize), zero, zero, s.context_.Encode());
    Bytes confirmationTag = primitives::HmacSha256(s.secrets_.confirmationKey, s.context_.confirmedTranscriptHash);
    s.interimTranscriptHash_ = InterimTranscriptHash(s.context_.confirmedTranscriptHash, confirmationTag);
    return s;
}

GroupState GroupState::FromWelcome(const JoinedGroup &joined, const KeyPackageBundle &own,
                                   ByteView signaturePrivateKey) {
    if (!joined.tree || !joined.ownLeaf) throw Error("group: the Welcome carried no ratchet tree");
    GroupState s;
    s.context_ = joined.groupInfo.groupContext;
    s.externalSenders_ = ParseExternalSenders(s.context_.extensions);
    s.tree_ = *joined.tree;
    s.ownLeaf_ = *joined.ownLeaf;
    s.signaturePrivateKey_.assign(signaturePrivateKey.begin(), signaturePrivateKey.end());
    s.nodePrivateKeys_[tree_math::LeafToNode(s.ownLeaf_)] = own.encryptionPrivateKey;
    if (joined.pathSecret) {
        // The committer signed the GroupInfo; its path secret for our common ancestor gives us the keys above it.
        auto pathKeys = DeriveJoinerPathKeys(s.tree_, joined.groupInfo.signer, s.ownLeaf_, *joined.pathSecret);
        s.nodePrivateKeys_.insert(pathKeys.begin(), pathKeys.end());
    }
    PruneKeys(s.nodePrivateKeys_, s.tree_);
    if (!s.nodePrivateKeys_.contains(tree_math::LeafToNode(s.ownLeaf_))) {
        throw Error("group: our leaf's encryption key is not the KeyPackage's");
    }
    s.secrets_ = joined.secrets;
    s.interimTranscriptHash_ =
        InterimTranscriptHash(s.context_.confirmedTranscriptHash, joined.groupInfo.confirmationTag);
    return s;
}

GroupState GroupState::Join(ByteView welcome, const KeyPackageBundle &own, ByteView signaturePrivateKey) {
    return FromWelcome(ProcessWelcome(welcome, own.keyPackage, own.initPrivateKey), own, signaturePrivateKey);
}

void GroupState::MergePendingCommit() {
    if (!pending_) throw Error("group: no pending commit to merge");
    std::unique_ptr<Pending> pending = std::move(pending_);
    *this = std::move(pending->next);
}

void GroupState::DiscardPendingCommit() { pending_.reset(); }

void GroupState::ProcessCommit(ByteView mlsMessage, const std::map<Bytes, ExternalProposal> &proposalsByRef) {
    if (pending_ &&
        std::equal(mlsMessage.begin(), mlsMessage.end(), pending_->commit.begin(), pending_->commit.end())) {
        MergePendingCommit();
        return;
    }
    CommitMessage c = CommitMessage::Decode(mlsMessage);
    if (c.groupId != context_.groupId) throw Error("commit: wrong group id");
    if (c.epoch != context_.epoch) throw Error("commit: not for the current epoch");
    if (c.senderLeaf >= tree_.LeafCount() || tree_.IsBlank(tree_math::LeafToNode(c.senderLeaf))) {
        throw Error("commit: sender is not a member");
    }
    if (c.senderLeaf == ownLeaf_) throw Error("commit: from our own leaf but not our pending commit");

    Bytes tbs = CommitTbs(c.receivedFramedContent, context_.Encode());
    const Bytes &senderKey = tree_.Node(tree_math::LeafToNode(c.senderLeaf))->leaf->signatureKey;
    if (!VerifyWithLabel(senderKey, "FramedContentTBS", tbs, c.signature))
        throw Error("commit: signature does not verify");
    if (MembershipTag(secrets_.membershipKey, tbs, c.signature, c.confirmationTag) != c.membershipTag) {
        throw Error("commit: membership tag does not verify");
    }

    std::vector<ResolvedProposal> proposals;
    for (const ProposalOrRef &p : c.proposals) {
        if (!p.byReference) {
            proposals.push_back(ResolvedProposal{p.type, p.added, p.removed});
            continue;
        }
        auto it = proposalsByRef.find(p.ref);
        if (it == proposalsByRef.end()) throw Error("commit: references an unknown proposal");
        const ExternalProposal &e = it->second;
        if (e.groupId != context_.groupId || e.epoch != context_.epoch)
            throw Error("commit: references a proposal of another epoch");
        proposals.push_back(ResolvedProposal{e.proposalType, e.added, e.removedLeaf});
    }

    for (const ResolvedProposal &p : proposals) {
        if (p.type == kProposalRemove && p.removed == c.senderLeaf) throw Error("commit: the committer removes itself");
        if (p.type == kProposalRemove && p.removed == ownLeaf_) throw RemovedFromGroup("commit: removes us");
    }
    // Everything below works on copies: the state changes only if every check passes.
    RatchetTree tree = tree_;
    AppliedProposals applied = ApplyProposals(tree, proposals, ownLeaf_);
    if (PathRequired(proposals) && !c.path) throw Error("commit: a Remove (or an empty commit) requires an UpdatePath");

    GroupContext next = context_;
    next.epoch = context_.epoch + 1;
    Bytes commitSecret(primitives::kHashSize, 0);
    std::map<uint32_t, Bytes> keys = nodePrivateKeys_;
    if (c.path) {
        ApplyReceivedPath(tree, c.senderLeaf, *c.path, context_.groupId);
        next.treeHash = tree.RootTreeHash();  // the provisional GroupContext the path secrets are encrypted under
        DecryptedPath decrypted =
            DecryptPath(tree, c.senderLeaf, ownLeaf_, *c.path, applied.newLeaves, keys, next.Encode());
        for (std::size_t i = 0; i < decrypted.nodes.size(); ++i)
            keys[decrypted.nodes[i]] = decrypted.secrets.nodeKeys[i].privateKey;
        commitSecret = decrypted.secrets.commitSecret;
    }
    next.treeHash = tree.RootTreeHash();
    next.confirmedTranscriptHash =
        ConfirmedTranscriptHash(interimTranscriptHash_, c.receivedFramedContent, c.signature);
    const Bytes zero(primitives::kHashSize, 0);
    EpochSecrets secrets = DeriveEpochSecrets(secrets_.initSecret, commitSecret, zero, next.Encode());
    if (primitives::HmacSha256(secrets.confirmationKey, next.confirmedTranscriptHash) != c.confirmationTag) {
        throw Error("commit: confirmation tag does not verify");
    }
    PruneKeys(keys, tree);

    context_ = std::move(next);
    tree_ = std::move(tree);
    secrets_ = std::move(secrets);
    nodePrivateKeys_ = std::move(keys);
    interimTranscriptHash_ = InterimTranscriptHash(context_.confirmedTranscriptHash, c.confirmationTag);
    pending_.reset();
}

Bytes GroupState::Export(std::string_view label, ByteView context, std::size_t length) const {
    return MlsExporter(secrets_.exporterSecret, ToBytes(label), context, length);
}

std::vector<uint64_t> GroupState::MemberUserIds() const {
    std::vector<uint64_t> ids;
    for (uint32_t leaf = 0; leaf < tree_.LeafCount(); ++leaf) {
        const auto &node = tree_.Node(tree_math::LeafToNode(leaf));
        if (!node) continue;
        const Bytes &identity = node->leaf->credential.identity;
        if (identity.size() != 8) throw Error("group: a member's identity is not an 8-byte DAVE user id");
        uint64_t id = 0;
        for (uint8_t b : identity) id = (id << 8) | b;
        ids.push_back(id);
    }
    return ids;
}

std::optional<uint32_t> GroupState::LeafOf(uint64_t userId) const {
    Bytes identity = DaveIdentity(userId);
    for (uint32_t leaf = 0; leaf < tree_.LeafCount(); ++leaf) {
        const auto &node = tree_.Node(tree_math::LeafToNode(leaf));
        if (node && node->leaf->credential.identity == identity) return leaf;
    }
    return std::nullopt;
}

}  // namespace svcpp::core::mls
