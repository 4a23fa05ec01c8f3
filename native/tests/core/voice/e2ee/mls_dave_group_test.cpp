// The DAVE session's MLS group over the real MLS library: members join through the external sender's Add proposals,
// one member's commit and Welcome, race to commit (the loser processes the winner's), and a Remove; every member
// derives the same exporter secret per epoch, and a removed member cannot follow.
#include <gtest/gtest.h>

#include "mls/external_proposal.hpp"
#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"
#include "voice/e2ee/dave_frame_transform.hpp"
#include "voice/e2ee/mls_dave_group.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;

namespace {

constexpr uint64_t kLobby = 77, kAlice = 1001, kBob = 1002, kCarol = 1003;

/** The voice server's side: the external sender key and its proposals. */
struct Server {
    mls::primitives::KeyPair key = mls::primitives::GenerateP256();
    mls::Bytes groupId = [] {
        mls::tls::Writer w;
        w.U64(kLobby);
        return w.Take();
    }();

    mls::Bytes ExternalSender() const {
        return mls::ExternalSender{key.publicKey, {mls::kCredentialBasic, mls::ToBytes("voice")}}.Encode();
    }
    mls::Bytes Add(const mls::Bytes &keyPackage, uint64_t epoch) const {
        return mls::CreateExternalProposal(key.privateKey, 0, groupId, epoch, mls::KeyPackage::Decode(keyPackage));
    }
    mls::Bytes Remove(uint32_t leaf, uint64_t epoch) const {
        return mls::CreateExternalProposal(key.privateKey, 0, groupId, epoch, std::nullopt, leaf);
    }
};

struct Member {
    MlsDaveGroup group;
    mls::Bytes keyPackage;
    Member(uint64_t userId, const Server &server) : group(userId, kLobby) {
        group.SetExternalSender(server.ExternalSender());
        keyPackage = group.ResetAndCreateKeyPackage();
    }
};

/** Alice creates the group and adds Bob (epoch 1). */
void FormAliceAndBob(const Server &server, Member &alice, Member &bob) {
    alice.group.AppendProposals({server.Add(bob.keyPackage, 0)});
    auto commit = alice.group.CommitPendingProposals();
    ASSERT_TRUE(commit && commit->welcome);
    ASSERT_TRUE(alice.group.MergeIfOwnCommit(commit->commit));
    bob.group.ProcessWelcome(*commit->welcome);
}

}  // namespace

TEST(MlsDaveGroup, CommitWithoutProposalsIsNothing) {
    Server server;
    Member alice(kAlice, server);
    EXPECT_FALSE(alice.group.CommitPendingProposals());
    EXPECT_FALSE(alice.group.InGroup());
}

TEST(MlsDaveGroup, TheFirstCommitCreatesTheGroupAndItsWelcomeJoinsTheOther) {
    Server server;
    Member alice(kAlice, server), bob(kBob, server);
    FormAliceAndBob(server, alice, bob);
    EXPECT_EQ(alice.group.Epoch(), 1u);
    EXPECT_EQ(bob.group.Epoch(), 1u);
    EXPECT_EQ(alice.group.ExporterSecret(), bob.group.ExporterSecret());
    EXPECT_EQ(alice.group.EpochAuthenticator(), bob.group.EpochAuthenticator());
    EXPECT_EQ(bob.group.MemberUserIds(), (std::vector<uint64_t>{kAlice, kBob}));
    EXPECT_EQ(bob.group.MemberSignatureKey(kAlice), alice.group.SignaturePublicKey());
}

TEST(MlsDaveGroup, TheLoserOfACommitRaceProcessesTheWinnersCommit) {
    Server server;
    Member alice(kAlice, server), bob(kBob, server), carol(kCarol, server);
    FormAliceAndBob(server, alice, bob);
    mls::Bytes add = server.Add(carol.keyPackage, 1);
    alice.group.AppendProposals({add});
    bob.group.AppendProposals({add});
    auto aliceCommit = alice.group.CommitPendingProposals();
    auto bobCommit = bob.group.CommitPendingProposals();
    ASSERT_TRUE(aliceCommit && bobCommit);
    // The server picks Bob's.
    ASSERT_TRUE(bob.group.MergeIfOwnCommit(bobCommit->commit));
    ASSERT_FALSE(alice.group.MergeIfOwnCommit(bobCommit->commit));
    alice.group.ProcessCommit(bobCommit->commit);
    carol.group.ProcessWelcome(*bobCommit->welcome);
    EXPECT_EQ(alice.group.Epoch(), 2u);
    EXPECT_EQ(alice.group.ExporterSecret(), bob.group.ExporterSecret());
    EXPECT_EQ(carol.group.ExporterSecret(), bob.group.ExporterSecret());
}

TEST(MlsDaveGroup, ARemovedMemberCannotFollowTheNextEpoch) {
    Server server;
    Member alice(kAlice, server), bob(kBob, server), carol(kCarol, server);
    FormAliceAndBob(server, alice, bob);
    mls::Bytes add = server.Add(carol.keyPackage, 1);
    alice.group.AppendProposals({add});
    bob.group.AppendProposals({add});
    auto addCarol = alice.group.CommitPendingProposals();
    ASSERT_TRUE(alice.group.MergeIfOwnCommit(addCarol->commit));
    bob.group.ProcessCommit(addCarol->commit);
    carol.group.ProcessWelcome(*addCarol->welcome);

    mls::Bytes removeBob = server.Remove(1, 2);
    alice.group.AppendProposals({removeBob});
    carol.group.AppendProposals({removeBob});
    bob.group.AppendProposals({removeBob});
    auto commit = alice.group.CommitPendingProposals();
    ASSERT_TRUE(commit);
    EXPECT_FALSE(commit->welcome);
    ASSERT_TRUE(alice.group.MergeIfOwnCommit(commit->commit));
    carol.group.ProcessCommit(commit->commit);
    EXPECT_EQ(carol.group.ExporterSecret(), alice.group.ExporterSecret());
    EXPECT_EQ(carol.group.MemberUserIds(), (std::vector<uint64_t>{kAlice, kCarol}));
    mls::Bytes bobsOld = bob.group.ExporterSecret();
    EXPECT_THROW(bob.group.ProcessCommit(commit->commit), mls::Error);
    EXPECT_EQ(bob.group.Epoch(), 2u);  // unchanged
    EXPECT_EQ(bob.group.ExporterSecret(), bobsOld);
    EXPECT_NE(bobsOld, alice.group.ExporterSecret());
}

TEST(MlsDaveGroup, ATamperedCommitIsRefusedAndChangesNothing) {
    Server server;
    Member alice(kAlice, server), bob(kBob, server), carol(kCarol, server);
    FormAliceAndBob(server, alice, bob);
    mls::Bytes add = server.Add(carol.keyPackage, 1);
    alice.group.AppendProposals({add});
    bob.group.AppendProposals({add});
    auto commit = alice.group.CommitPendingProposals();
    mls::Bytes tampered = commit->commit;
    tampered[tampered.size() / 2] ^= 0x01;
    mls::Bytes before = bob.group.ExporterSecret();
    EXPECT_THROW(bob.group.ProcessCommit(tampered), mls::Error);
    EXPECT_EQ(bob.group.Epoch(), 1u);
    EXPECT_EQ(bob.group.ExporterSecret(), before);
    bob.group.ProcessCommit(commit->commit);  // the genuine one still applies
    EXPECT_EQ(bob.group.Epoch(), 2u);
}

TEST(MlsDaveGroup, ProposalsOfAnotherEpochOrSenderAreRefusedAndNotKept) {
    Server server, impostor;
    Member alice(kAlice, server), bob(kBob, server);
    EXPECT_THROW(alice.group.AppendProposals({server.Add(bob.keyPackage, 4)}), mls::Error);
    EXPECT_THROW(alice.group.AppendProposals({impostor.Add(bob.keyPackage, 0)}), mls::Error);
    // All or nothing: a valid one beside an invalid one is not kept either.
    EXPECT_THROW(alice.group.AppendProposals({server.Add(bob.keyPackage, 0), server.Add(bob.keyPackage, 3)}),
                 mls::Error);
    EXPECT_FALSE(alice.group.CommitPendingProposals());
}

TEST(MlsDaveGroup, RevokedProposalsAreNotCommitted) {
    Server server;
    Member alice(kAlice, server), bob(kBob, server);
    alice.group.AppendProposals({server.Add(bob.keyPackage, 0)});
    std::vector<mls::ExternalSender> senders{mls::ExternalSender::Decode(server.ExternalSender())};
    auto ref = mls::ProcessExternalProposal(server.Add(bob.keyPackage, 0), senders, server.groupId, 0).ref;
    // Signatures are randomised: the ref of a second signing differs, so it revokes nothing.
    alice.group.RevokeProposals({ref});
    EXPECT_TRUE(alice.group.CommitPendingProposals());
}

TEST(MlsDaveGroup, RevokingTheKeptProposalLeavesNothingToCommit) {
    Server server;
    Member alice(kAlice, server), bob(kBob, server);
    mls::Bytes add = server.Add(bob.keyPackage, 0);
    alice.group.AppendProposals({add});
    std::vector<mls::ExternalSender> senders{mls::ExternalSender::Decode(server.ExternalSender())};
    alice.group.RevokeProposals({mls::ProcessExternalProposal(add, senders, server.groupId, 0).ref});
    EXPECT_FALSE(alice.group.CommitPendingProposals());
}

TEST(MlsDaveGroup, AWelcomeForAnotherKeyPackageIsRefused) {
    Server server;
    Member alice(kAlice, server), bob(kBob, server), carol(kCarol, server);
    alice.group.AppendProposals({server.Add(bob.keyPackage, 0)});
    auto commit = alice.group.CommitPendingProposals();
    EXPECT_THROW(carol.group.ProcessWelcome(*commit->welcome), mls::Error);
    EXPECT_FALSE(carol.group.InGroup());
}

namespace {

std::vector<uint8_t> OpusFrame() {
    std::vector<uint8_t> f(60);
    for (std::size_t i = 0; i < f.size(); ++i) f[i] = static_cast<uint8_t>(i * 7 + 1);
    f[0] = 0x78;
    return f;
}

std::vector<uint8_t> Seal(DaveFrameTransform &from) {
    auto frame = OpusFrame();
    std::vector<uint8_t> wire(frame.size() + from.MaxEncryptOverhead());
    auto size = from.Encrypt(1, frame, wire);
    wire.resize(size.value_or(0));
    return wire;
}

bool Opens(DaveFrameTransform &to, uint64_t from, const std::vector<uint8_t> &wire) {
    std::vector<uint8_t> out(wire.size());
    return to.Decrypt(from, 1, wire, out).has_value();
}

class StillClock final : public Clock {
  public:
    TimePoint Now() const override { return TimePoint{} + std::chrono::hours(1); }
};

}  // namespace

// Media keyed from the real group: a member who left cannot decrypt frames of the epoch after its removal, and a
// late joiner cannot decrypt frames of the epochs before it joined.
TEST(MlsDaveGroup, LeaversAndLateJoinersCannotDecryptOutsideTheirEpochs) {
    Server server;
    StillClock clock;
    Member alice(kAlice, server), bob(kBob, server), carol(kCarol, server);
    DaveFrameTransform aliceMedia{kAlice, clock}, bobMedia{kBob, clock}, carolMedia{kCarol, clock};
    FormAliceAndBob(server, alice, bob);
    aliceMedia.SetEpochKeys(alice.group.ExporterSecret(), alice.group.MemberUserIds());
    bobMedia.SetEpochKeys(bob.group.ExporterSecret(), bob.group.MemberUserIds());
    auto beforeCarol = Seal(aliceMedia);
    ASSERT_TRUE(Opens(bobMedia, kAlice, beforeCarol));

    mls::Bytes add = server.Add(carol.keyPackage, 1);
    alice.group.AppendProposals({add});
    bob.group.AppendProposals({add});
    auto addCarol = alice.group.CommitPendingProposals();
    ASSERT_TRUE(alice.group.MergeIfOwnCommit(addCarol->commit));
    bob.group.ProcessCommit(addCarol->commit);
    carol.group.ProcessWelcome(*addCarol->welcome);
    for (auto [m, media] :
         {std::pair{&alice, &aliceMedia}, std::pair{&bob, &bobMedia}, std::pair{&carol, &carolMedia}}) {
        media->SetEpochKeys(m->group.ExporterSecret(), m->group.MemberUserIds());
    }
    EXPECT_FALSE(Opens(carolMedia, kAlice, beforeCarol));  // late joiner: nothing from before it joined
    auto withCarol = Seal(aliceMedia);
    EXPECT_TRUE(Opens(carolMedia, kAlice, withCarol));
    EXPECT_TRUE(Opens(bobMedia, kAlice, withCarol));

    mls::Bytes removeBob = server.Remove(1, 2);
    alice.group.AppendProposals({removeBob});
    carol.group.AppendProposals({removeBob});
    auto commit = alice.group.CommitPendingProposals();
    ASSERT_TRUE(alice.group.MergeIfOwnCommit(commit->commit));
    carol.group.ProcessCommit(commit->commit);
    aliceMedia.SetEpochKeys(alice.group.ExporterSecret(), alice.group.MemberUserIds());
    carolMedia.SetEpochKeys(carol.group.ExporterSecret(), carol.group.MemberUserIds());
    auto afterBob = Seal(aliceMedia);
    EXPECT_TRUE(Opens(carolMedia, kAlice, afterBob));
    EXPECT_FALSE(Opens(bobMedia, kAlice, afterBob));  // the leaver keeps only the old epoch's keys
}
