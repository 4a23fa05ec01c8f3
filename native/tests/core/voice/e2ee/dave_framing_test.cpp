// DAVE's binary framing on the voice gateway: headers, op 27 append/revoke vectors (split back into messages), the
// transition-id prefix of ops 29/30, and malformed input refused with DecodeError.
#include <gtest/gtest.h>

#include "mls/external_proposal.hpp"
#include "mls/key_package.hpp"
#include "voice/e2ee/dave_framing.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;

namespace {

mls::Bytes GroupId() { return mls::Bytes{0, 0, 0, 0, 0, 0, 0x30, 0x39}; }

}  // namespace

TEST(DaveFraming, ServerBinaryCarriesSequenceOpcodeAndPayload) {
    mls::Bytes wire = dave::EncodeServerBinary(0x0102, dave::Op::Proposals, mls::Bytes{9, 8, 7});
    EXPECT_EQ(wire, (mls::Bytes{0x01, 0x02, 27, 9, 8, 7}));
    auto m = dave::DecodeServerBinary(wire);
    EXPECT_EQ(m.seq, 0x0102);
    EXPECT_EQ(m.op, dave::Op::Proposals);
    EXPECT_EQ(m.payload, (mls::Bytes{9, 8, 7}));
}

TEST(DaveFraming, ServerBinaryRefusesShortHeadersAndClientOpcodes) {
    EXPECT_THROW(dave::DecodeServerBinary(mls::Bytes{0x00, 0x01}), mls::DecodeError);
    EXPECT_THROW(dave::DecodeServerBinary(mls::Bytes{0x00, 0x01, 26, 1}), mls::DecodeError);  // op 26 is the client's
    EXPECT_THROW(dave::DecodeServerBinary(mls::Bytes{0x00, 0x01, 22}), mls::DecodeError);     // op 22 is JSON
}

TEST(DaveFraming, ClientBinaryIsOpcodeThenPayload) {
    EXPECT_EQ(dave::EncodeClientBinary(dave::Op::KeyPackage, mls::Bytes{1, 2}), (mls::Bytes{26, 1, 2}));
}

TEST(DaveFraming, ProposalsAppendSplitsConcatenatedExternalProposals) {
    auto server = mls::primitives::GenerateP256();
    auto member = mls::primitives::GenerateP256();
    auto kp = mls::CreateDaveKeyPackage(42, member).keyPackage;
    mls::Bytes add = mls::CreateExternalProposal(server.privateKey, 0, GroupId(), 3, kp);
    mls::Bytes remove = mls::CreateExternalProposal(server.privateKey, 0, GroupId(), 3, std::nullopt, 2);
    mls::Bytes payload = dave::EncodeProposals({false, {add, remove}});
    auto decoded = dave::DecodeProposals(payload);
    EXPECT_FALSE(decoded.revoke);
    ASSERT_EQ(decoded.items.size(), 2u);
    EXPECT_EQ(decoded.items[0], add);
    EXPECT_EQ(decoded.items[1], remove);
    // Each split message is exactly what MLS authenticates.
    std::vector<mls::ExternalSender> senders{{server.publicKey, {mls::kCredentialBasic, mls::ToBytes("server")}}};
    EXPECT_EQ(mls::ProcessExternalProposal(decoded.items[1], senders, GroupId(), 3).removedLeaf, 2u);
}

TEST(DaveFraming, ProposalsRevokeCarriesRefs) {
    mls::Bytes payload = dave::EncodeProposals({true, {mls::Bytes(32, 1), mls::Bytes(32, 2)}});
    EXPECT_EQ(payload[0], 1);
    auto decoded = dave::DecodeProposals(payload);
    EXPECT_TRUE(decoded.revoke);
    ASSERT_EQ(decoded.items.size(), 2u);
    EXPECT_EQ(decoded.items[1], mls::Bytes(32, 2));
}

TEST(DaveFraming, ProposalsRefuseUnknownOperationEmptyAndTruncatedPayloads) {
    EXPECT_THROW(dave::DecodeProposals(mls::Bytes{2, 0}), mls::DecodeError);
    EXPECT_THROW(dave::DecodeProposals(mls::Bytes{0, 0}), mls::DecodeError);
    EXPECT_THROW(dave::DecodeProposals(mls::Bytes{0, 5, 1, 2}), mls::DecodeError);
    EXPECT_THROW(dave::DecodeProposals(mls::Bytes{1, 2, 5, 1}), mls::DecodeError);
}

TEST(DaveFraming, ProposalsAppendRefusesMessagesThatAreNotExternalProposals) {
    auto server = mls::primitives::GenerateP256();
    mls::Bytes remove = mls::CreateExternalProposal(server.privateKey, 0, GroupId(), 3, std::nullopt, 2);
    mls::Bytes bad = remove;
    bad[2 + 2 + 1 + GroupId().size() + 8] = 1;  // sender type: member
    EXPECT_THROW(dave::DecodeProposals(dave::EncodeProposals({false, {bad}})), mls::DecodeError);
    mls::Bytes truncated(remove.begin(), remove.end() - 1);
    EXPECT_THROW(dave::DecodeProposals(dave::EncodeProposals({false, {truncated}})), mls::DecodeError);
}

TEST(DaveFraming, TransitionPayloadIsBigEndianIdThenBody) {
    mls::Bytes wire = dave::EncodeTransitionPayload(0x1234, mls::Bytes{5, 6});
    EXPECT_EQ(wire, (mls::Bytes{0x12, 0x34, 5, 6}));
    auto t = dave::DecodeTransitionPayload(wire);
    EXPECT_EQ(t.transitionId, 0x1234);
    EXPECT_EQ(t.body, (mls::Bytes{5, 6}));
    EXPECT_THROW(dave::DecodeTransitionPayload(mls::Bytes{0x12, 0x34}), mls::DecodeError);
    EXPECT_THROW(dave::DecodeTransitionPayload(mls::Bytes{0x12}), mls::DecodeError);
}

TEST(DaveFraming, CommitWelcomeIsTheCommitFollowedByTheOptionalWelcome) {
    EXPECT_EQ(dave::EncodeCommitWelcome(mls::Bytes{1, 2}, std::nullopt), (mls::Bytes{1, 2}));
    EXPECT_EQ(dave::EncodeCommitWelcome(mls::Bytes{1, 2}, mls::Bytes{3}), (mls::Bytes{1, 2, 3}));
}
