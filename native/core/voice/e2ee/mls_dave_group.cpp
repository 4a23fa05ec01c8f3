#include "voice/e2ee/mls_dave_group.hpp"

#include <algorithm>

#include "mls/tls_codec.hpp"

namespace svcpp::core::voice::e2ee {

using mls::Bytes;
using mls::ByteView;

namespace {

Bytes U64BigEndian(uint64_t value) {
    mls::tls::Writer w;
    w.U64(value);
    return w.Take();
}

bool SameBytes(ByteView a, ByteView b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

}  // namespace

MlsDaveGroup::MlsDaveGroup(uint64_t ownUserId, uint64_t groupId)
    : ownUserId_(ownUserId), groupId_(U64BigEndian(groupId)), signatureKey_(mls::primitives::GenerateP256()) {}

Bytes MlsDaveGroup::ResetAndCreateKeyPackage() {
    auto bundle = mls::CreateDaveKeyPackage(ownUserId_, signatureKey_);
    Bytes encoded = bundle.keyPackage.Encode();
    keyPackage_ = std::move(bundle);
    group_.reset();
    proposals_.clear();
    ownCommit_.reset();
    return encoded;
}

void MlsDaveGroup::SetExternalSender(ByteView externalSender) {
    externalSenders_ = {mls::ExternalSender::Decode(externalSender)};
}

void MlsDaveGroup::AppendProposals(const std::vector<Bytes> &proposalMessages) {
    if (externalSenders_.empty()) throw mls::Error("dave group: proposals before the external sender");
    uint64_t epoch = group_ ? group_->Epoch() : 0;
    // All or nothing: every message is authenticated before any is kept.
    std::vector<mls::ExternalProposal> checked;
    for (const Bytes &message : proposalMessages) {
        checked.push_back(mls::ProcessExternalProposal(message, externalSenders_, groupId_, epoch));
    }
    for (auto &p : checked) {
        bool known = std::any_of(proposals_.begin(), proposals_.end(), [&](const auto &q) { return q.ref == p.ref; });
        if (!known) proposals_.push_back(std::move(p));
    }
}

void MlsDaveGroup::RevokeProposals(const std::vector<Bytes> &proposalRefs) {
    std::erase_if(proposals_, [&](const mls::ExternalProposal &p) {
        return std::any_of(proposalRefs.begin(), proposalRefs.end(), [&](const Bytes &ref) { return ref == p.ref; });
    });
}

std::optional<DaveCommitWelcome> MlsDaveGroup::CommitPendingProposals() {
    if (proposals_.empty()) return std::nullopt;
    if (!keyPackage_) throw mls::Error("dave group: no KeyPackage yet");
    // Before a group exists (epoch 0) we commit in a group of our own; the server keeps the first commit it gets.
    std::optional<mls::GroupState> created;
    mls::GroupState *group = group_ ? &*group_ : nullptr;
    if (!group) {
        created = mls::GroupState::Create(groupId_, *keyPackage_, signatureKey_.privateKey, externalSenders_);
        group = &*created;
    }
    mls::CommitOutput out = group->Commit(proposals_);
    if (created) group_ = std::move(created);
    ownCommit_ = out.commit;
    return DaveCommitWelcome{std::move(out.commit), std::move(out.welcome)};
}

bool MlsDaveGroup::MergeIfOwnCommit(ByteView commit) {
    if (!group_ || !ownCommit_ || !group_->HasPendingCommit() || !SameBytes(commit, *ownCommit_)) return false;
    group_->MergePendingCommit();
    proposals_.clear();
    ownCommit_.reset();
    return true;
}

void MlsDaveGroup::ProcessCommit(ByteView commit) {
    if (!group_) throw mls::Error("dave group: a commit without a group");
    std::map<Bytes, mls::ExternalProposal> byRef;
    for (const auto &p : proposals_) byRef.emplace(p.ref, p);
    group_->ProcessCommit(commit, byRef);
    proposals_.clear();
    ownCommit_.reset();
}

void MlsDaveGroup::ProcessWelcome(ByteView welcome) {
    if (!keyPackage_) throw mls::Error("dave group: a Welcome before our KeyPackage");
    mls::GroupState joined = mls::GroupState::Join(welcome, *keyPackage_, signatureKey_.privateKey);
    if (!SameBytes(joined.GroupId(), groupId_)) throw mls::Error("dave group: Welcome for another group");
    group_ = std::move(joined);
    proposals_.clear();
    ownCommit_.reset();
}

uint64_t MlsDaveGroup::Epoch() const { return group_ ? group_->Epoch() : 0; }

Bytes MlsDaveGroup::ExporterSecret() const {
    if (!group_) throw mls::Error("dave group: no group");
    return group_->Secrets().exporterSecret;
}

std::vector<uint64_t> MlsDaveGroup::MemberUserIds() const {
    return group_ ? group_->MemberUserIds() : std::vector<uint64_t>{};
}

Bytes MlsDaveGroup::EpochAuthenticator() const {
    if (!group_) throw mls::Error("dave group: no group");
    return group_->Secrets().epochAuthenticator;
}

std::optional<Bytes> MlsDaveGroup::MemberSignatureKey(uint64_t userId) const {
    if (!group_) return std::nullopt;
    auto leaf = group_->LeafOf(userId);
    if (!leaf) return std::nullopt;
    const auto &node = group_->Tree().Node(2 * *leaf);  // leaf i is node 2i (RFC 9420 Appendix C)
    if (!node || !node->leaf) return std::nullopt;
    return node->leaf->signatureKey;
}

}  // namespace svcpp::core::voice::e2ee
