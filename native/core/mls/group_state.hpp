// A member's view of an MLS group (RFC 9420) as DAVE uses it: created alone or joined from a Welcome, then advanced
// epoch by epoch by commits — its own or another member's.
//
// Commits (§12.4): a commit covers the external sender's Add/Remove proposals (by reference, DAVE's opcode 27 → 28).
// A commit carries an UpdatePath (§7.5, §7.6) when a proposal requires one — any Remove — and not otherwise (DAVE's
// add-only commits). Processing checks the signature and membership tag, applies the proposals and the path (the
// path secret decrypted at our common ancestor with the committer, parent hashes and the committer's new leaf
// signature verified), advances the transcript hashes and key schedule, and checks the confirmation tag.
//
// Own commits are pending until the voice server picks a winner (DAVE opcode 29 announces it): `Commit` returns the
// commit and Welcome and keeps the next state aside; `MergePendingCommit` moves to it when ours won, and
// `ProcessCommit` of another member's commit discards it. Every operation is all-or-nothing: on any thrown Error the
// state (pending commit included) is unchanged.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/external_proposal.hpp"
#include "mls/key_package.hpp"
#include "mls/key_schedule.hpp"
#include "mls/ratchet_tree.hpp"
#include "mls/welcome.hpp"

namespace svcpp::core::mls {

/** An authentic commit (signature and membership tag verified) removes us: the caller leaves the group. */
class RemovedFromGroup : public Error {
  public:
    using Error::Error;
};

/** What `Commit` produces: DAVE's opcode 28 payload. */
struct CommitOutput {
    /** MLSMessage (PublicMessage) carrying the Commit. */
    Bytes commit;
    /** A bare Welcome (not MLSMessage-wrapped, as DAVE sends it) when the commit adds members. */
    std::optional<Bytes> welcome;
};

class GroupState {
  public:
    /**
     * A new group at epoch 0 whose only member is us (leaf 0), with a GroupContext carrying the `external_senders`
     * extension (§12.1.8.1) — the voice server, DAVE opcode 25. `own` is our KeyPackage bundle (its leaf node becomes
     * leaf 0, its encryption private key that leaf's key) and `signaturePrivateKey` signs our commits.
     */
    static GroupState Create(ByteView groupId, const KeyPackageBundle &own, ByteView signaturePrivateKey,
                             const std::vector<ExternalSender> &externalSenders);

    /**
     * The state right after a successful ProcessWelcome (which must have carried the ratchet tree). `own` is the
     * bundle of the KeyPackage the Welcome was for; its encryption private key (and the Welcome's path secret, when
     * the commit had a path) give us the private keys we need to process later commits with a path.
     */
    static GroupState FromWelcome(const JoinedGroup &joined, const KeyPackageBundle &own, ByteView signaturePrivateKey);
    /** ProcessWelcome then FromWelcome. */
    static GroupState Join(ByteView welcome, const KeyPackageBundle &own, ByteView signaturePrivateKey);

    /**
     * Commits `proposals` (authenticated external proposals of this epoch, included by reference) and returns the
     * commit and, when members are added, their Welcome (GroupInfo signed by us with the ratchet_tree extension,
     * GroupSecrets encrypted to each KeyPackage's init key). An UpdatePath is included when a Remove is committed.
     * The next state is kept pending (replacing any earlier pending commit); the current epoch is unchanged until
     * MergePendingCommit. Throws Error (state unchanged) when a proposal is for another group or epoch, removes us,
     * removes a blank leaf, or when there is nothing to commit.
     */
    CommitOutput Commit(const std::vector<ExternalProposal> &proposals);
    bool HasPendingCommit() const { return pending_ != nullptr; }
    /** Our pending commit won: move to its epoch. Throws Error when there is no pending commit. */
    void MergePendingCommit();
    /** Our pending commit lost (or the proposals changed): forget it. No effect without one. */
    void DiscardPendingCommit();

    /**
     * Applies a commit (an MLSMessage PublicMessage from a member), with or without an UpdatePath. `proposalsByRef`
     * resolves proposals the commit references (ExternalProposal::ref → proposal). When the bytes are exactly our
     * pending commit, this merges it (a committer cannot decrypt its own path); otherwise the pending commit is
     * discarded once this one applies. Throws Error, leaving the state unchanged, when any check fails;
     * RemovedFromGroup (an Error) when the commit is authentic and removes us.
     */
    void ProcessCommit(ByteView mlsMessage, const std::map<Bytes, ExternalProposal> &proposalsByRef = {});

    uint64_t Epoch() const { return context_.epoch; }
    const Bytes &GroupId() const { return context_.groupId; }
    const GroupContext &Context() const { return context_; }
    const EpochSecrets &Secrets() const { return secrets_; }
    const RatchetTree &Tree() const { return tree_; }
    uint32_t OwnLeaf() const { return ownLeaf_; }
    /** The external senders of the GroupContext (to authenticate proposals with ProcessExternalProposal). */
    const std::vector<ExternalSender> &ExternalSenders() const { return externalSenders_; }
    /** MLS-Exporter(label, context, length) of the current epoch (§8.5). */
    Bytes Export(std::string_view label, ByteView context, std::size_t length) const;
    /**
     * The user ids of the current members in leaf order (DAVE identities: basic credentials of 8 big-endian bytes) —
     * with Secrets().exporterSecret, what DaveFrameTransform::SetEpochKeys takes.
     */
    std::vector<uint64_t> MemberUserIds() const;
    /** The leaf of the member with DAVE user id `userId`, if any. */
    std::optional<uint32_t> LeafOf(uint64_t userId) const;

    GroupState(const GroupState &other);
    GroupState &operator=(const GroupState &other);
    GroupState(GroupState &&) noexcept;
    GroupState &operator=(GroupState &&) noexcept;
    ~GroupState();

  private:
    GroupState() = default;
    struct Pending;

    GroupContext context_;
    std::vector<ExternalSender> externalSenders_;
    RatchetTree tree_;
    uint32_t ownLeaf_ = 0;
    Bytes signaturePrivateKey_;
    /** HPKE private keys we hold, by node index: our leaf's and those of the parents on our direct path we know. */
    std::map<uint32_t, Bytes> nodePrivateKeys_;
    EpochSecrets secrets_;
    Bytes interimTranscriptHash_;
    std::unique_ptr<Pending> pending_;
};

}  // namespace svcpp::core::mls
