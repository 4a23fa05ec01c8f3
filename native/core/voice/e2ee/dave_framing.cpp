#include "voice/e2ee/dave_framing.hpp"

#include "mls/key_package.hpp"
#include "mls/tls_codec.hpp"

namespace svcpp::core::voice::e2ee::dave {

namespace tls = mls::tls;
using mls::Bytes;
using mls::ByteView;
using mls::DecodeError;

ServerBinaryMessage DecodeServerBinary(ByteView message) {
    tls::Reader r(message);
    ServerBinaryMessage m;
    m.seq = r.U16();
    uint8_t op = r.U8();
    switch (static_cast<Op>(op)) {
        case Op::ExternalSender:
        case Op::Proposals:
        case Op::AnnounceCommitTransition:
        case Op::Welcome: break;
        default: throw DecodeError("dave: binary opcode " + std::to_string(op) + " is not one the server sends");
    }
    m.op = static_cast<Op>(op);
    m.payload = r.Raw(r.Remaining());
    return m;
}

Bytes EncodeServerBinary(uint16_t seq, Op op, ByteView payload) {
    tls::Writer w;
    w.U16(seq);
    w.U8(static_cast<uint8_t>(op));
    w.Raw(payload);
    return w.Take();
}

Bytes EncodeClientBinary(Op op, ByteView payload) {
    Bytes out;
    out.reserve(payload.size() + 1);
    out.push_back(static_cast<uint8_t>(op));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

ProposalsPayload DecodeProposals(ByteView payload) {
    tls::Reader r(payload);
    uint8_t kind = r.U8();
    if (kind > 1)
        throw DecodeError("dave: proposals operation " + std::to_string(kind) + " is neither append nor revoke");
    ProposalsPayload p;
    p.revoke = kind == 1;
    Bytes body = r.Opaque();
    r.ExpectEnd();
    if (p.revoke) {
        tls::Reader refs(body);
        while (!refs.Empty()) p.items.push_back(refs.Opaque());
    } else {
        p.items = SplitExternalProposalMessages(body);
    }
    if (p.items.empty()) throw DecodeError("dave: proposals message carries nothing");
    return p;
}

Bytes EncodeProposals(const ProposalsPayload &proposals) {
    tls::Writer inner;
    for (const Bytes &item : proposals.items) {
        if (proposals.revoke)
            inner.Opaque(item);
        else
            inner.Raw(item);
    }
    tls::Writer w;
    w.U8(proposals.revoke ? 1 : 0);
    w.Opaque(inner.Bytes());
    return w.Take();
}

std::vector<Bytes> SplitExternalProposalMessages(ByteView concatenated) {
    // The messages are not length-prefixed one by one: each one's extent is found by walking its PublicMessage
    // structure (RFC 9420 §6.2) as far as an external proposal goes. The contents are checked later, by MLS.
    std::vector<Bytes> messages;
    tls::Reader r(concatenated);
    while (!r.Empty()) {
        std::size_t start = r.Position();
        r.U16();     // version
        r.U16();     // wire format
        r.Opaque();  // group id
        r.U64();     // epoch
        uint8_t senderType = r.U8();
        if (senderType != 2) throw DecodeError("dave: proposal not from the external sender");
        r.U32();     // sender index
        r.Opaque();  // authenticated data
        if (r.U8() != 2)
            throw DecodeError("dave: proposals message holds something else than a proposal");  // content type proposal
        uint16_t type = r.U16();
        if (type == 1) {
            mls::KeyPackage::Read(r);
        } else if (type == 3) {
            r.U32();
        } else {
            throw DecodeError("dave: proposal type " + std::to_string(type) + " is not Add or Remove");
        }
        r.Opaque();  // signature (a non-member sender has no membership tag)
        messages.emplace_back(concatenated.begin() + static_cast<std::ptrdiff_t>(start),
                              concatenated.begin() + static_cast<std::ptrdiff_t>(r.Position()));
    }
    return messages;
}

TransitionPayload DecodeTransitionPayload(ByteView payload) {
    tls::Reader r(payload);
    TransitionPayload t;
    t.transitionId = r.U16();
    if (r.Empty()) throw DecodeError("dave: transition payload without a body");
    t.body = r.Raw(r.Remaining());
    return t;
}

Bytes EncodeTransitionPayload(uint16_t transitionId, ByteView body) {
    tls::Writer w;
    w.U16(transitionId);
    w.Raw(body);
    return w.Take();
}

Bytes EncodeCommitWelcome(ByteView commit, const std::optional<Bytes> &welcome) {
    Bytes out(commit.begin(), commit.end());
    if (welcome) out.insert(out.end(), welcome->begin(), welcome->end());
    return out;
}

}  // namespace svcpp::core::voice::e2ee::dave
