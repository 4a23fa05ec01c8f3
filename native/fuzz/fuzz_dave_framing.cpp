// libFuzzer target: DAVE's binary opcode framing on the voice gateway (native/core/voice/e2ee/dave_framing). Every
// binary message the server relays — external sender (op 25), proposals (27), announced commits (29) and Welcomes
// (30) — is decoded here before MLS sees it; malformed input must fail with mls::DecodeError (never another
// exception, a crash or a read out of bounds), and what decodes must encode back to the same bytes, so no part of a
// message is silently dropped or invented on the way to MLS.
//
// Input: byte 0 picks the decoder, the rest is the bytes:
//   0 DecodeServerBinary (u16 seq | u8 op | payload)     1 DecodeProposals (op 27 payload: append or revoke)
//   2 SplitExternalProposalMessages (op 27 append body)  3 DecodeTransitionPayload (op 29 / 30 payload)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "voice/e2ee/dave_framing.hpp"

using namespace svcpp::core;
using namespace svcpp::core::voice::e2ee;

namespace {

void Check(bool condition) {
    if (!condition) __builtin_trap();
}

bool Same(const mls::Bytes &a, mls::ByteView b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

void FuzzServerBinary(mls::ByteView in) {
    dave::ServerBinaryMessage m = dave::DecodeServerBinary(in);
    Check(dave::IsDaveOp(static_cast<int>(m.op)));
    Check(Same(dave::EncodeServerBinary(m.seq, m.op, m.payload), in));
}

void FuzzProposals(mls::ByteView in) {
    dave::ProposalsPayload p = dave::DecodeProposals(in);
    Check(!p.items.empty());
    Check(Same(dave::EncodeProposals(p), in));
}

void FuzzSplit(mls::ByteView in) {
    std::vector<mls::Bytes> messages = dave::SplitExternalProposalMessages(in);
    mls::Bytes joined;
    for (const mls::Bytes &m : messages) {
        Check(!m.empty());
        joined.insert(joined.end(), m.begin(), m.end());
    }
    Check(Same(joined, in));
}

void FuzzTransition(mls::ByteView in) {
    dave::TransitionPayload t = dave::DecodeTransitionPayload(in);
    Check(!t.body.empty());
    Check(Same(dave::EncodeTransitionPayload(t.transitionId, t.body), in));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const mls::ByteView in(data + 1, size - 1);
    try {
        switch (data[0] % 4) {
            case 0: FuzzServerBinary(in); break;
            case 1: FuzzProposals(in); break;
            case 2: FuzzSplit(in); break;
            default: FuzzTransition(in); break;
        }
    } catch (const mls::DecodeError &) {
        // The one refusal malformed framing may produce.
    }
    return 0;
}
