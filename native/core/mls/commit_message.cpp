#include "mls/commit_message.hpp"

#include <string>

#include "mls/cipher_suite.hpp"
#include "mls/external_proposal.hpp"
#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"

namespace svcpp::core::mls {
namespace {

constexpr uint8_t kSenderMember = 1;
constexpr uint8_t kContentTypeCommit = 3;
constexpr uint8_t kProposalByValue = 1;
constexpr uint8_t kProposalByReference = 2;

}  // namespace

Bytes CommitMessage::EncodeFramedContent() const {
    tls::Writer w;
    w.Opaque(groupId);
    w.U64(epoch);
    w.U8(kSenderMember);
    w.U32(senderLeaf);
    w.Opaque({});  // authenticated_data: DAVE sends none
    w.U8(kContentTypeCommit);
    w.Vector(proposals, [](tls::Writer &out, const ProposalOrRef &p) {
        if (p.byReference) {
            out.U8(kProposalByReference);
            out.Opaque(p.ref);
            return;
        }
        out.U8(kProposalByValue);
        out.U16(p.type);
        if (p.type == kProposalAdd) {
            out.Raw(p.added->Encode());
        } else {
            out.U32(p.removed);
        }
    });
    w.Optional(path, [](tls::Writer &out, const UpdatePath &p) { p.Encode(out); });
    return w.Take();
}

Bytes CommitMessage::Encode() const {
    tls::Writer w;
    w.U16(kProtocolVersionMls10);
    w.U16(kWireFormatPublicMessage);
    w.Raw(EncodeFramedContent());
    w.Opaque(signature);
    w.Opaque(confirmationTag);
    w.Opaque(membershipTag);
    return w.Take();
}

CommitMessage CommitMessage::Decode(ByteView mlsMessage) {
    tls::Reader r(mlsMessage);
    if (r.U16() != kProtocolVersionMls10) throw Error("commit: protocol version is not mls10");
    if (r.U16() != kWireFormatPublicMessage) throw Error("commit: not a PublicMessage");
    CommitMessage c;
    std::size_t contentStart = r.Position();
    c.groupId = r.Opaque();
    c.epoch = r.U64();
    if (r.U8() != kSenderMember) throw Error("commit: sender is not a member");
    c.senderLeaf = r.U32();
    r.Opaque();  // authenticated_data
    if (r.U8() != kContentTypeCommit) throw Error("commit: content is not a commit");
    c.proposals = r.Vector<ProposalOrRef>([](tls::Reader &in) {
        ProposalOrRef p;
        uint8_t kind = in.U8();
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
            p.byReference = true;
            p.ref = in.Opaque();
        } else {
            throw DecodeError("commit: ProposalOrRef type is invalid");
        }
        return p;
    });
    c.path = r.Optional<UpdatePath>([](tls::Reader &in) { return UpdatePath::Decode(in); });
    c.receivedFramedContent.assign(mlsMessage.begin() + static_cast<std::ptrdiff_t>(contentStart),
                                   mlsMessage.begin() + static_cast<std::ptrdiff_t>(r.Position()));
    c.signature = r.Opaque();
    c.confirmationTag = r.Opaque();
    c.membershipTag = r.Opaque();
    r.ExpectEnd();
    return c;
}

Bytes CommitTbs(ByteView framedContent, ByteView encodedGroupContext) {
    tls::Writer w;
    w.U16(kProtocolVersionMls10);
    w.U16(kWireFormatPublicMessage);
    w.Raw(framedContent);
    w.Raw(encodedGroupContext);
    return w.Take();
}

Bytes MembershipTag(ByteView membershipKey, ByteView tbs, ByteView signature, ByteView confirmationTag) {
    tls::Writer tbm;
    tbm.Raw(tbs);
    tbm.Opaque(signature);
    tbm.Opaque(confirmationTag);
    return primitives::HmacSha256(membershipKey, tbm.Bytes());
}

Bytes ConfirmedTranscriptHash(ByteView interimTranscriptHash, ByteView framedContent, ByteView signature) {
    tls::Writer w;
    w.Raw(interimTranscriptHash);
    w.U16(kWireFormatPublicMessage);
    w.Raw(framedContent);
    w.Opaque(signature);
    return primitives::Sha256(w.Bytes());
}

Bytes InterimTranscriptHash(ByteView confirmedTranscriptHash, ByteView confirmationTag) {
    tls::Writer w;
    w.Raw(confirmedTranscriptHash);
    w.Opaque(confirmationTag);
    return primitives::Sha256(w.Bytes());
}

}  // namespace svcpp::core::mls
