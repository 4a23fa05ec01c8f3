// DAVE's opcodes on the voice gateway and their binary framing (platform/PROTOCOL.md §13.7; the public DAVE protocol
// description, `discord/dave-protocol`, protocol version 1):
//
//   server → client binary   u16 seq (big-endian) | u8 opcode | payload      (seq is acknowledged like JSON "seq")
//   client → server binary   u8 opcode | payload
//   op 27 Proposals          u8 0 append | MLSMessage messages<V>   or   u8 1 revoke | ProposalRef refs<V>
//   op 29 / op 30            u16 transition_id | commit (MLSMessage) / Welcome
//   op 28 Commit/Welcome     MLSMessage commit | optional Welcome (nothing after the commit when there is none)
//
// Ops 21, 22, 23, 24 and 31 are JSON. Malformed binary input throws mls::DecodeError.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"

namespace svcpp::core::voice::e2ee::dave {

/** The DAVE protocol version this SDK implements (Identify's max_dave_protocol_version). */
inline constexpr int kProtocolVersion = 1;

enum class Op : uint8_t {
    PrepareTransition = 21,
    ExecuteTransition = 22,
    TransitionReady = 23,
    PrepareEpoch = 24,
    ExternalSender = 25,
    KeyPackage = 26,
    Proposals = 27,
    CommitWelcome = 28,
    AnnounceCommitTransition = 29,
    Welcome = 30,
    InvalidCommitWelcome = 31,
};

/** True for the opcodes this module handles (21–31). */
inline bool IsDaveOp(int op) { return op >= 21 && op <= 31; }

struct ServerBinaryMessage {
    uint16_t seq = 0;
    Op op = Op::ExternalSender;
    mls::Bytes payload;
};

/** A binary message from the server; throws DecodeError when shorter than its header or not one of 25, 27, 29, 30. */
ServerBinaryMessage DecodeServerBinary(mls::ByteView message);
/** The server's framing (tests and tools: a fake server speaks it). */
mls::Bytes EncodeServerBinary(uint16_t seq, Op op, mls::ByteView payload);
mls::Bytes EncodeClientBinary(Op op, mls::ByteView payload);

struct ProposalsPayload {
    bool revoke = false;
    /** append: each MLSMessage (a PublicMessage from the external sender); revoke: each ProposalRef. */
    std::vector<mls::Bytes> items;
};
ProposalsPayload DecodeProposals(mls::ByteView payload);
mls::Bytes EncodeProposals(const ProposalsPayload &proposals);

/** Splits concatenated external-sender PublicMessages (an op 27 append vector) into one message each. */
std::vector<mls::Bytes> SplitExternalProposalMessages(mls::ByteView concatenated);

struct TransitionPayload {
    uint16_t transitionId = 0;
    mls::Bytes body;
};
TransitionPayload DecodeTransitionPayload(mls::ByteView payload);
mls::Bytes EncodeTransitionPayload(uint16_t transitionId, mls::ByteView body);

mls::Bytes EncodeCommitWelcome(mls::ByteView commit, const std::optional<mls::Bytes> &welcome);

}  // namespace svcpp::core::voice::e2ee::dave
