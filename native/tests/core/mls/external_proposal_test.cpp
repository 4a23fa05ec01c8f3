// External Add/Remove proposals in PublicMessage: creation, authentication, and every rejection rule.
#include <gtest/gtest.h>

#include "mls/external_proposal.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::Hex;
using test::ToHex;

namespace {
struct Server {
    primitives::KeyPair key = primitives::GenerateP256();
    std::vector<ExternalSender> senders() const { return {ExternalSender{key.publicKey, Credential{1, Hex("00")}}}; }
};
const Bytes kGroup = Hex("0000000000000abc");
}  // namespace

TEST(ExternalProposal, AddIsAuthenticatedAndCarriesTheValidatedKeyPackage) {
    Server server;
    KeyPackage kp = CreateDaveKeyPackage(77, primitives::GenerateP256()).keyPackage;
    Bytes message = CreateExternalProposal(server.key.privateKey, 0, kGroup, 5, kp);
    ExternalProposal p = ProcessExternalProposal(message, server.senders(), kGroup, 5);
    EXPECT_EQ(p.proposalType, kProposalAdd);
    ASSERT_TRUE(p.added);
    EXPECT_EQ(p.added->Encode(), kp.Encode());
    EXPECT_EQ(p.epoch, 5u);
    EXPECT_EQ(p.ref.size(), 32u);
}

TEST(ExternalProposal, RemoveIsAuthenticated) {
    Server server;
    Bytes message = CreateExternalProposal(server.key.privateKey, 0, kGroup, 2, std::nullopt, 3);
    ExternalProposal p = ProcessExternalProposal(message, server.senders(), kGroup, 2);
    EXPECT_EQ(p.proposalType, kProposalRemove);
    EXPECT_EQ(p.removedLeaf, 3u);
    EXPECT_FALSE(p.added);
}

TEST(ExternalProposal, WrongGroupEpochSenderOrSignatureIsRejected) {
    Server server, impostor;
    Bytes message = CreateExternalProposal(server.key.privateKey, 0, kGroup, 2, std::nullopt, 1);
    EXPECT_THROW(ProcessExternalProposal(message, server.senders(), Hex("0000000000000abd"), 2), Error);
    EXPECT_THROW(ProcessExternalProposal(message, server.senders(), kGroup, 3), Error);
    EXPECT_THROW(ProcessExternalProposal(message, impostor.senders(), kGroup, 2), Error);
    EXPECT_THROW(ProcessExternalProposal(message, {}, kGroup, 2), Error);
    Bytes tampered = message;
    tampered[tampered.size() - 5] ^= 1;  // inside the signature
    EXPECT_THROW(ProcessExternalProposal(tampered, server.senders(), kGroup, 2), Error);
    Bytes otherLeaf = message;
    // The last byte of the removed leaf index: version, wire format, group id<8>, epoch, sender, no authenticated
    // data, content type, proposal type, then the u32.
    otherLeaf[4 + 1 + 8 + 8 + 1 + 4 + 1 + 1 + 2 + 3] ^= 1;
    EXPECT_THROW(ProcessExternalProposal(otherLeaf, server.senders(), kGroup, 2), Error);
}

TEST(ExternalProposal, MalformedOrForeignMessagesAreRejected) {
    Server server;
    Bytes message = CreateExternalProposal(server.key.privateKey, 0, kGroup, 2, std::nullopt, 1);
    Bytes truncated(message.begin(), message.end() - 1);
    EXPECT_THROW(ProcessExternalProposal(truncated, server.senders(), kGroup, 2), DecodeError);
    Bytes trailing = message;
    trailing.push_back(0);
    EXPECT_THROW(ProcessExternalProposal(trailing, server.senders(), kGroup, 2), DecodeError);
    Bytes privateMessage = message;
    privateMessage[3] = 2;  // wire format mls_private_message
    EXPECT_THROW(ProcessExternalProposal(privateMessage, server.senders(), kGroup, 2), Error);
    Bytes memberSender = message;
    memberSender[4 + 1 + 8 + 8] = 1;  // sender type member
    EXPECT_THROW(ProcessExternalProposal(memberSender, server.senders(), kGroup, 2), Error);
    EXPECT_THROW(ProcessExternalProposal(Bytes{}, server.senders(), kGroup, 2), DecodeError);
}

TEST(ExternalSender, RoundTripsAndRejectsTrailingBytes) {
    ExternalSender s{primitives::GenerateP256().publicKey, Credential{1, Hex("0102")}};
    Bytes encoded = s.Encode();
    ExternalSender decoded = ExternalSender::Decode(encoded);
    EXPECT_EQ(decoded.signatureKey, s.signatureKey);
    EXPECT_EQ(decoded.credential, s.credential);
    encoded.push_back(0);
    EXPECT_THROW(ExternalSender::Decode(encoded), DecodeError);
}
