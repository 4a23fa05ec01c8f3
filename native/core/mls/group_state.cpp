#include "mls/group_state.hpp"

#include <algorithm>
#include <string>

#include "mls/cipher_suite.hpp"
#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"
#include "mls/tree_math.hpp"

namespace svcpp::core::mls {
namespace {

constexpr uint8_t kSenderMember = 1;
constexpr uint8_t kContentTypeCommit = 3;
constexpr uint8_t kProposalByValue = 1;
constexpr uint8_t kProposalByReference = 2;

// InterimTranscriptHashInput (§8.2): interim = Hash(confirmed ‖ opaque confirmation_tag<V>).
Bytes InterimTranscriptHash(ByteView confirmed, ByteView confirmationTag) {
    tls::Writer w;
    w.Raw(confirmed);
    w.Opaque(confirmationTag);
    return primitives::Sha256(w.Bytes());
}

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
        while (!items.Empty()) {
            ExternalSender sender;
            sender.signatureKey = items.Opaque();
            sender.credential.type = items.U16();
            if (sender.credential.type != kCredentialBasic) throw DecodeError("external sender credential is not basic");
            sender.credential.identity = items.Opaque();
            senders.push_back(std::move(sender));
        }
    }
    return senders;
}

struct AppliedProposal {
    uint16_t type = 0;
    std::optional<KeyPackage> added;
    uint32_t removed = 0;
};

}  // namespace

struct GroupState::Pending {
    Bytes commit;
    GroupState next;
};

GroupState::GroupState(const GroupState& other)
    : context_(other.context_), externalSenders_(other.externalSenders_), tree_(other.tree_), ownLeaf_(other.ownLeaf_),
      signaturePrivateKey_(other.signaturePrivateKey_), nodePrivateKeys_(other.nodePrivateKeys_),
      secrets_(other.secrets_), interimTranscriptHash_(other.interimTranscriptHash_),
      pending_(other.pending_ ? std::make_unique<Pending>(*other.pending_) : nullptr) {}

GroupState& GroupState::operator=(const GroupState& other) {
    if (this != &other) *this = GroupState(other);
    return *this;
}

GroupState::GroupState(GroupState&&) noexcept = default;
GroupState& GroupState::operator=(GroupState&&) noexcept = default;
GroupState::~GroupState() = default;

GroupState GroupState::Create(ByteView, const KeyPackageBundle&, ByteView, const std::vector<ExternalSender>&) {
    throw Error("group: creating a group is not implemented yet");
}

GroupState GroupState::Join(ByteView welcome, const KeyPackageBundle& own, ByteView signaturePrivateKey) {
    return FromWelcome(ProcessWelcome(welcome, own.keyPackage, own.initPrivateKey), own, signaturePrivateKey);
}

CommitOutput GroupState::Commit(const std::vector<ExternalProposal>&) {
    throw Error("group: creating a commit is not implemented yet");
}

void GroupState::MergePendingCommit() {
    if (!pending_) throw Error("group: no pending commit to merge");
    std::unique_ptr<Pending> pending = std::move(pending_);
    *this = std::move(pending->next);
}

void GroupState::DiscardPendingCommit() { pending_.reset(); }

Bytes GroupState::Export(std::string_view label, ByteView context, std::size_t length) const {
    return MlsExporter(secrets_.exporterSecret, ToBytes(label), context, length);
}

std::vector<uint64_t> GroupState::MemberUserIds() const {
    std::vector<uint64_t> ids;
    for (uint32_t leaf = 0; leaf < tree_.LeafCount(); ++leaf) {
        const auto& node = tree_.Node(tree_math::LeafToNode(leaf));
        if (!node) continue;
        const Bytes& identity = node->leaf->credential.identity;
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
        const auto& node = tree_.Node(tree_math::LeafToNode(leaf));
        if (node && node->leaf->credential.identity == identity) return leaf;
    }
    return std::nullopt;
}

GroupState GroupState::FromWelcome(const JoinedGroup& joined, const KeyPackageBundle& own, ByteView signaturePrivateKey) {
    if (!joined.tree || !joined.ownLeaf) throw Error("group: the Welcome carried no ratchet tree");
    GroupState s;
    s.signaturePrivateKey_.assign(signaturePrivateKey.begin(), signaturePrivateKey.end());
    s.nodePrivateKeys_[tree_math::LeafToNode(*joined.ownLeaf)] = own.encryptionPrivateKey;
    s.context_ = joined.groupInfo.groupContext;
    s.externalSenders_ = ParseExternalSenders(s.context_.extensions);
    s.tree_ = *joined.tree;
    s.ownLeaf_ = *joined.ownLeaf;
    s.secrets_ = joined.secrets;
    s.interimTranscriptHash_ = InterimTranscriptHash(s.context_.confirmedTranscriptHash, joined.groupInfo.confirmationTag);
    return s;
}

void GroupState::ProcessCommit(ByteView mlsMessage, const std::map<Bytes, ExternalProposal>& proposalsByRef) {
    tls::Reader r(mlsMessage);
    if (r.U16() != kProtocolVersionMls10) throw Error("commit: protocol version is not mls10");
    if (r.U16() != kWireFormatPublicMessage) throw Error("commit: not a PublicMessage");
    std::size_t contentStart = r.Position();
    Bytes groupId = r.Opaque();
    uint64_t epoch = r.U64();
    if (r.U8() != kSenderMember) throw Error("commit: sender is not a member");
    uint32_t senderLeaf = r.U32();
    r.Opaque();  // authenticated_data
    if (r.U8() != kContentTypeCommit) throw Error("commit: content is not a commit");

    std::vector<AppliedProposal> proposals = r.Vector<AppliedProposal>([&](tls::Reader& in) {
        uint8_t kind = in.U8();
        AppliedProposal p;
        if (kind == kProposalByValue) {
            p.type = in.U16();
            if (p.type == kProposalAdd) {
                p.added = KeyPackage::Read(in);
            } else if (p.type == kProposalRemove) {
                p.removed = in.U32();
            } else {
                throw Error("commit: proposal type " + std::to_string(p.type) + " is not Add or Remove");
            }
        } else if (kind == kProposalByReference) {
            Bytes ref = in.Opaque();
            auto it = proposalsByRef.find(ref);
            if (it == proposalsByRef.end()) throw Error("commit: references an unknown proposal");
            p.type = it->second.proposalType;
            p.added = it->second.added;
            p.removed = it->second.removedLeaf;
        } else {
            throw DecodeError("commit: ProposalOrRef type is invalid");
        }
        return p;
    });
    bool hasPath = r.Optional<bool>([](tls::Reader&) -> bool {
        throw Error("commit: commits with an UpdatePath are not supported yet");
    }).has_value();
    (void)hasPath;
    std::size_t contentEnd = r.Position();
    Bytes signature = r.Opaque();
    Bytes confirmationTag = r.Opaque();
    Bytes membershipTag = r.Opaque();
    r.ExpectEnd();

    if (groupId != context_.groupId) throw Error("commit: wrong group id");
    if (epoch != context_.epoch) throw Error("commit: not for the current epoch");
    if (senderLeaf >= tree_.LeafCount() || tree_.IsBlank(tree_math::LeafToNode(senderLeaf))) {
        throw Error("commit: sender is not a member");
    }

    // Signature over FramedContentTBS (a member's includes the current GroupContext).
    ByteView framedContent = mlsMessage.subspan(contentStart, contentEnd - contentStart);
    Bytes encodedContext = context_.Encode();
    tls::Writer tbs;
    tbs.U16(kProtocolVersionMls10);
    tbs.U16(kWireFormatPublicMessage);
    tbs.Raw(framedContent);
    tbs.Raw(encodedContext);
    const Bytes& senderKey = tree_.Node(tree_math::LeafToNode(senderLeaf))->leaf->signatureKey;
    if (!VerifyWithLabel(senderKey, "FramedContentTBS", tbs.Bytes(), signature)) {
        throw Error("commit: signature does not verify");
    }
    // Membership tag: MAC(membership_key, AuthenticatedContentTBM = FramedContentTBS ‖ FramedContentAuthData).
    tls::Writer tbm;
    tbm.Raw(tbs.Bytes());
    tbm.Opaque(signature);
    tbm.Opaque(confirmationTag);
    if (primitives::HmacSha256(secrets_.membershipKey, tbm.Bytes()) != membershipTag) {
        throw Error("commit: membership tag does not verify");
    }

    // Apply to a copy: the state changes only if every check passes. Removes before adds (§12.3 order: the adds then
    // fill the leftmost blanks, which may be the removed leaves).
    RatchetTree tree = tree_;
    for (const auto& p : proposals) {
        if (p.type == kProposalRemove) {
            if (p.removed == ownLeaf_) throw Error("commit: removes us");
            tree.RemoveLeaf(p.removed);
        }
    }
    for (const auto& p : proposals) {
        if (p.type == kProposalAdd) {
            p.added->Validate();
            tree.AddLeaf(p.added->leafNode);
        }
    }
    bool hasRemove = std::any_of(proposals.begin(), proposals.end(), [](const auto& p) { return p.type == kProposalRemove; });
    if (hasRemove) throw Error("commit: a Remove requires an UpdatePath, not supported yet");

    // Transcript hashes and the next epoch (§8.2, §8): commit_secret is zero without a path, no PSKs.
    tls::Writer confirmedInput;
    confirmedInput.Raw(interimTranscriptHash_);
    confirmedInput.U16(kWireFormatPublicMessage);
    confirmedInput.Raw(framedContent);
    confirmedInput.Opaque(signature);
    GroupContext next = context_;
    next.epoch = context_.epoch + 1;
    next.treeHash = tree.RootTreeHash();
    next.confirmedTranscriptHash = primitives::Sha256(confirmedInput.Bytes());
    const Bytes zero(primitives::kHashSize, 0);
    EpochSecrets secrets = DeriveEpochSecrets(secrets_.initSecret, zero, zero, next.Encode());
    if (primitives::HmacSha256(secrets.confirmationKey, next.confirmedTranscriptHash) != confirmationTag) {
        throw Error("commit: confirmation tag does not verify");
    }

    context_ = std::move(next);
    tree_ = std::move(tree);
    secrets_ = std::move(secrets);
    interimTranscriptHash_ = InterimTranscriptHash(context_.confirmedTranscriptHash, confirmationTag);
}

}  // namespace svcpp::core::mls
