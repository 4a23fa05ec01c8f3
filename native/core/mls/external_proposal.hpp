// Proposals from the external sender (RFC 9420 §12.1.8.1), the only proposals DAVE allows: the voice server adds
// and removes members with Add / Remove proposals carried as PublicMessage (MLSMessage, wire format
// mls_public_message), signed with its ExternalSender key (announced in the group's external_senders extension,
// DAVE opcode 25). This file decodes and authenticates them, and (for tests and tools) creates them.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/key_package.hpp"

namespace svcpp::core::mls {

inline constexpr uint16_t kWireFormatPublicMessage = 1;
inline constexpr uint16_t kProposalAdd = 1;
inline constexpr uint16_t kProposalRemove = 3;

/** ExternalSender (§12.1.8.1): the DAVE opcode 25 payload. */
struct ExternalSender {
    Bytes signatureKey;
    Credential credential;

    Bytes Encode() const;
    static ExternalSender Decode(ByteView bytes);
    /** Reads one ExternalSender from a larger structure (the external_senders extension's list). */
    static ExternalSender Read(tls::Reader &r);
};

/** An authenticated external Add or Remove proposal. */
struct ExternalProposal {
    Bytes groupId;
    uint64_t epoch = 0;
    uint32_t senderIndex = 0;
    uint16_t proposalType = 0;
    std::optional<KeyPackage> added;  // Add: the validated KeyPackage
    uint32_t removedLeaf = 0;         // Remove: the leaf index removed
    /** ProposalRef = RefHash("MLS 1.0 Proposal Reference", AuthenticatedContent) (§5.2). */
    Bytes ref;
};

/**
 * Decodes one MLSMessage carrying an external proposal and checks it: protocol version, wire format, sender type
 * external with an index into `externalSenders`, content type proposal, group id and epoch, the signature over
 * FramedContentTBS, proposal type Add or Remove, and (for Add) the KeyPackage's own validation. Throws Error
 * (DecodeError for malformed bytes) naming the first rule broken.
 */
ExternalProposal ProcessExternalProposal(ByteView mlsMessage, const std::vector<ExternalSender> &externalSenders,
                                         ByteView groupId, uint64_t epoch);

/** Creates a signed external Add (when `added` is set) or Remove proposal as an encoded MLSMessage. */
Bytes CreateExternalProposal(ByteView signaturePrivateKey, uint32_t senderIndex, ByteView groupId, uint64_t epoch,
                             const std::optional<KeyPackage> &added, uint32_t removedLeaf = 0);

}  // namespace svcpp::core::mls
