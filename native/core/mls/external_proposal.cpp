#include "mls/external_proposal.hpp"

#include <algorithm>
#include <string>

#include "mls/cipher_suite.hpp"

namespace svcpp::core::mls {
namespace {

constexpr uint8_t kSenderExternal = 2;
constexpr uint8_t kContentTypeProposal = 2;

// FramedContent (§6) of an external proposal: everything the signature covers after version and wire format.
Bytes EncodeFramedContent(ByteView groupId, uint64_t epoch, uint32_t senderIndex, ByteView authenticatedData,
                          ByteView proposal) {
    tls::Writer w;
    w.Opaque(groupId);
    w.U64(epoch);
    w.U8(kSenderExternal);
    w.U32(senderIndex);
    w.Opaque(authenticatedData);
    w.U8(kContentTypeProposal);
    w.Raw(proposal);
    return w.Take();
}

// FramedContentTBS for a non-member sender: no GroupContext is appended (§6.1).
Bytes EncodeTbs(ByteView framedContent) {
    tls::Writer w;
    w.U16(kProtocolVersionMls10);
    w.U16(kWireFormatPublicMessage);
    w.Raw(framedContent);
    return w.Take();
}

}  // namespace

Bytes ExternalSender::Encode() const {
    tls::Writer w;
    w.Opaque(signatureKey);
    w.U16(credential.type);
    w.Opaque(credential.identity);
    return w.Take();
}

ExternalSender ExternalSender::Decode(ByteView bytes) {
    tls::Reader r(bytes);
    ExternalSender s = Read(r);
    r.ExpectEnd();
    return s;
}

ExternalSender ExternalSender::Read(tls::Reader &r) {
    ExternalSender s;
    s.signatureKey = r.Opaque();
    s.credential.type = r.U16();
    if (s.credential.type != kCredentialBasic) throw DecodeError("external sender credential is not basic");
    s.credential.identity = r.Opaque();
    return s;
}

ExternalProposal ProcessExternalProposal(ByteView mlsMessage, const std::vector<ExternalSender> &externalSenders,
                                         ByteView groupId, uint64_t epoch) {
    tls::Reader r(mlsMessage);
    if (r.U16() != kProtocolVersionMls10) throw Error("proposal: protocol version is not mls10");
    if (r.U16() != kWireFormatPublicMessage) throw Error("proposal: not a PublicMessage");

    // FramedContent, remembering where it starts and ends for the signature and the ProposalRef.
    std::size_t contentStart = r.Position();
    ExternalProposal p;
    p.groupId = r.Opaque();
    p.epoch = r.U64();
    uint8_t senderType = r.U8();
    if (senderType != kSenderExternal) throw Error("proposal: sender is not the external sender");
    p.senderIndex = r.U32();
    r.Opaque();  // authenticated_data: DAVE's server sends none, and nothing here depends on it
    if (r.U8() != kContentTypeProposal) throw Error("proposal: content is not a proposal");
    p.proposalType = r.U16();
    if (p.proposalType == kProposalAdd) {
        KeyPackage kp = KeyPackage::Read(r);
        p.added = std::move(kp);
    } else if (p.proposalType == kProposalRemove) {
        p.removedLeaf = r.U32();
    } else {
        throw Error("proposal: type " + std::to_string(p.proposalType) + " is not Add or Remove");
    }
    std::size_t contentEnd = r.Position();
    Bytes signature = r.Opaque();  // FramedContentAuthData (no confirmation tag for a proposal)
    // A non-member sender carries no membership tag: the message ends here.
    r.ExpectEnd();

    if (p.groupId.size() != groupId.size() || !std::equal(p.groupId.begin(), p.groupId.end(), groupId.begin())) {
        throw Error("proposal: wrong group id");
    }
    if (p.epoch != epoch) throw Error("proposal: epoch " + std::to_string(p.epoch) + " is not the current epoch");
    if (p.senderIndex >= externalSenders.size()) throw Error("proposal: unknown external sender index");

    ByteView framedContent = mlsMessage.subspan(contentStart, contentEnd - contentStart);
    if (!VerifyWithLabel(externalSenders[p.senderIndex].signatureKey, "FramedContentTBS", EncodeTbs(framedContent),
                         signature)) {
        throw Error("proposal: signature does not verify");
    }
    if (p.added) p.added->Validate();

    // AuthenticatedContent = wire_format ‖ FramedContent ‖ FramedContentAuthData: the message without its version.
    p.ref = RefHash(ToBytes("MLS 1.0 Proposal Reference"), mlsMessage.subspan(2));
    return p;
}

Bytes CreateExternalProposal(ByteView signaturePrivateKey, uint32_t senderIndex, ByteView groupId, uint64_t epoch,
                             const std::optional<KeyPackage> &added, uint32_t removedLeaf) {
    tls::Writer proposal;
    if (added) {
        proposal.U16(kProposalAdd);
        proposal.Raw(added->Encode());
    } else {
        proposal.U16(kProposalRemove);
        proposal.U32(removedLeaf);
    }
    Bytes framedContent = EncodeFramedContent(groupId, epoch, senderIndex, {}, proposal.Bytes());
    Bytes signature = SignWithLabel(signaturePrivateKey, "FramedContentTBS", EncodeTbs(framedContent));
    tls::Writer w;
    w.U16(kProtocolVersionMls10);
    w.U16(kWireFormatPublicMessage);
    w.Raw(framedContent);
    w.Opaque(signature);
    return w.Take();
}

}  // namespace svcpp::core::mls
