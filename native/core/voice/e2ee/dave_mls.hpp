// What the DAVE session needs from its MLS group (RFC 9420), as one interface: the session's protocol logic (opcodes,
// transitions, recovery) stays free of MLS details and is unit-tested against a fake group; `mls_dave_group` is the
// implementation over native/core/mls.
//
// Every method runs on the session's thread. A method that rejects its input throws mls::Error and changes nothing.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"

namespace svcpp::core::voice::e2ee {

struct DaveCommitWelcome {
    mls::Bytes commit;                  // MLSMessage (PublicMessage) commit
    std::optional<mls::Bytes> welcome;  // when the commit adds members
};

class DaveMlsGroup {
  public:
    virtual ~DaveMlsGroup() = default;

    /**
     * Forgets any group and pending state and makes a fresh KeyPackage (and private keys) for our user: the op 26
     * payload, a bare KeyPackage. Called when joining, after op 24 epoch 1 (a new group) and after op 31.
     */
    virtual mls::Bytes ResetAndCreateKeyPackage() = 0;
    /** Op 25: the external sender (the voice server), whose proposals are the only ones accepted. */
    virtual void SetExternalSender(mls::ByteView externalSender) = 0;

    /** Op 27 append: checks and keeps each external proposal for the next commit. */
    virtual void AppendProposals(const std::vector<mls::Bytes> &proposalMessages) = 0;
    /** Op 27 revoke: drops the proposals with these refs (unknown refs are ignored). */
    virtual void RevokeProposals(const std::vector<mls::Bytes> &proposalRefs) = 0;
    /**
     * Commits every kept proposal (creating our own one-member group first when we hold none), keeping the commit
     * pending until the server announces the winner; nullopt when no proposal is kept.
     */
    virtual std::optional<DaveCommitWelcome> CommitPendingProposals() = 0;

    /** Op 29: our pending commit won when `commit` is it; then it is merged, else false (and nothing changes). */
    virtual bool MergeIfOwnCommit(mls::ByteView commit) = 0;
    /** Op 29 with another member's commit; drops our pending commit and proposals. */
    virtual void ProcessCommit(mls::ByteView commit) = 0;
    /** Op 30: joins from a Welcome; drops any pending commit and proposals. */
    virtual void ProcessWelcome(mls::ByteView welcome) = 0;

    /** Whether we hold the call's group (joined or committed to); false while waiting for a Welcome. */
    virtual bool InGroup() const = 0;
    virtual uint64_t Epoch() const = 0;
    /** The current epoch's exporter_secret, from which each member's media keys derive. */
    virtual mls::Bytes ExporterSecret() const = 0;
    /** The user id of every member of the current epoch (ours included). */
    virtual std::vector<uint64_t> MemberUserIds() const = 0;
    /** The current epoch's epoch_authenticator (RFC 9420 §8.7), from which the call's privacy code derives. */
    virtual mls::Bytes EpochAuthenticator() const = 0;
};

}  // namespace svcpp::core::voice::e2ee
