// A Commit as DAVE carries it (RFC 9420 §6, §12.4): an MLSMessage with a PublicMessage from a member, whose content
// is a Commit { ProposalOrRef proposals<V>; optional<UpdatePath> path; }, authenticated by the signature over
// FramedContentTBS, the confirmation tag and the membership tag. Encoding, strict decoding, and the transcript hash
// and tag computations both the committer and the receivers need.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/key_package.hpp"
#include "mls/update_path.hpp"

namespace svcpp::core::mls {

struct ProposalOrRef {
    bool byReference = false;
    Bytes ref;                        // by reference: the ProposalRef
    uint16_t type = 0;                // by value: kProposalAdd or kProposalRemove
    std::optional<KeyPackage> added;  // by value Add
    uint32_t removed = 0;             // by value Remove
};

struct CommitMessage {
    Bytes groupId;
    uint64_t epoch = 0;
    uint32_t senderLeaf = 0;
    std::vector<ProposalOrRef> proposals;
    std::optional<UpdatePath> path;
    Bytes signature;
    Bytes confirmationTag;
    Bytes membershipTag;
    /** Decode: the FramedContent bytes exactly as received (what the signature covers). */
    Bytes receivedFramedContent;

    /** The encoded FramedContent (group id … commit), what the signature and transcript hash cover. */
    Bytes EncodeFramedContent() const;
    /** The whole MLSMessage. */
    Bytes Encode() const;
    /** Decodes an MLSMessage PublicMessage whose sender is a member and whose content is a commit. */
    static CommitMessage Decode(ByteView mlsMessage);
};

/** FramedContentTBS for a member sender: version, wire format, FramedContent, then the GroupContext (§6.1). */
Bytes CommitTbs(ByteView framedContent, ByteView encodedGroupContext);
/** MAC(membership_key, AuthenticatedContentTBM) (§6.2). */
Bytes MembershipTag(ByteView membershipKey, ByteView tbs, ByteView signature, ByteView confirmationTag);
/** confirmed_transcript_hash = Hash(interim ‖ wire_format ‖ FramedContent ‖ signature<V>) (§8.2). */
Bytes ConfirmedTranscriptHash(ByteView interimTranscriptHash, ByteView framedContent, ByteView signature);
/** interim_transcript_hash = Hash(confirmed ‖ confirmation_tag<V>) (§8.2). */
Bytes InterimTranscriptHash(ByteView confirmedTranscriptHash, ByteView confirmationTag);

}  // namespace svcpp::core::mls
