// The DAVE session's MLS group over native/core/mls: our identity key and KeyPackage, the external sender's
// authenticated proposals of the current epoch, and the GroupState (created alone when we commit first, or joined
// from a Welcome). Group id = the call's id (the lobby id) as 8 big-endian bytes; identity = our user id, likewise.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "mls/external_proposal.hpp"
#include "mls/group_state.hpp"
#include "mls/key_package.hpp"
#include "mls/primitives.hpp"
#include "voice/e2ee/dave_mls.hpp"

namespace svcpp::core::voice::e2ee {

class MlsDaveGroup final : public DaveMlsGroup {
  public:
    /** A fresh identity (signature) key for this call; it never leaves the process. */
    MlsDaveGroup(uint64_t ownUserId, uint64_t groupId);

    mls::Bytes ResetAndCreateKeyPackage() override;
    void SetExternalSender(mls::ByteView externalSender) override;
    void AppendProposals(const std::vector<mls::Bytes> &proposalMessages) override;
    void RevokeProposals(const std::vector<mls::Bytes> &proposalRefs) override;
    std::optional<DaveCommitWelcome> CommitPendingProposals() override;
    bool MergeIfOwnCommit(mls::ByteView commit) override;
    void ProcessCommit(mls::ByteView commit) override;
    void ProcessWelcome(mls::ByteView welcome) override;
    bool InGroup() const override { return group_.has_value(); }
    uint64_t Epoch() const override;
    mls::Bytes ExporterSecret() const override;
    std::vector<uint64_t> MemberUserIds() const override;
    mls::Bytes EpochAuthenticator() const override;

    /** Our signature public key (what other members' fingerprints of us are made from). */
    const mls::Bytes &SignaturePublicKey() const { return signatureKey_.publicKey; }
    /** The signature public key of member `userId` in the current epoch, if a member. */
    std::optional<mls::Bytes> MemberSignatureKey(uint64_t userId) const;

  private:
    const uint64_t ownUserId_;
    const mls::Bytes groupId_;
    const mls::primitives::KeyPair signatureKey_;
    std::optional<mls::KeyPackageBundle> keyPackage_;
    std::vector<mls::ExternalSender> externalSenders_;
    std::optional<mls::GroupState> group_;
    /** The external sender's proposals of the current epoch, in arrival order (commits list them in that order). */
    std::vector<mls::ExternalProposal> proposals_;
    std::optional<mls::Bytes> ownCommit_;
};

}  // namespace svcpp::core::voice::e2ee
