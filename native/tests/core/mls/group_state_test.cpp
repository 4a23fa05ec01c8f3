// GroupState end to end inside svcpp: a group created by one member grows through its own commits and Welcomes,
// shrinks through commits with an UpdatePath, and every member ends each epoch with the same secrets. The external
// sender (DAVE's voice server) is played by a key pair here, proposing with CreateExternalProposal.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "mls/group_state.hpp"
#include "mls/primitives.hpp"

namespace svcpp::core::mls {
namespace {

const Bytes kGroupId = ToBytes("dave channel 42");

struct Member {
    uint64_t userId;
    primitives::KeyPair signature = primitives::GenerateP256();
    KeyPackageBundle bundle;
    std::optional<GroupState> group;

    explicit Member(uint64_t id) : userId(id), bundle(CreateDaveKeyPackage(id, signature)) {}
};

class Server {
  public:
    primitives::KeyPair key = primitives::GenerateP256();
    std::vector<ExternalSender> Senders() const {
        return {ExternalSender{key.publicKey, {kCredentialBasic, DaveIdentity(1)}}};
    }

    ExternalProposal Add(const GroupState &g, const KeyPackage &kp) const {
        return ProcessExternalProposal(CreateExternalProposal(key.privateKey, 0, g.GroupId(), g.Epoch(), kp), Senders(),
                                       g.GroupId(), g.Epoch());
    }
    ExternalProposal Remove(const GroupState &g, uint32_t leaf) const {
        return ProcessExternalProposal(
            CreateExternalProposal(key.privateKey, 0, g.GroupId(), g.Epoch(), std::nullopt, leaf), Senders(),
            g.GroupId(), g.Epoch());
    }
};

std::map<Bytes, ExternalProposal> ByRef(const std::vector<ExternalProposal> &proposals) {
    std::map<Bytes, ExternalProposal> out;
    for (const auto &p : proposals) out.emplace(p.ref, p);
    return out;
}

// `committer` commits `proposals`, wins, every other member in `members` follows (the removed ones are refused: the
// commit removes them, and their state stays), and the new members join.
void CommitAndDeliver(Member &committer, std::vector<Member *> members, const std::vector<ExternalProposal> &proposals,
                      const std::vector<Member *> &joiners = {}) {
    CommitOutput out = committer.group->Commit(proposals);
    committer.group->ProcessCommit(out.commit, ByRef(proposals));  // the server picked it: merges the pending state
    for (Member *m : members) {
        if (m == &committer) continue;
        bool removed = std::any_of(proposals.begin(), proposals.end(), [&](const ExternalProposal &p) {
            return p.proposalType == kProposalRemove && p.removedLeaf == m->group->OwnLeaf();
        });
        if (removed) {
            uint64_t epoch = m->group->Epoch();
            EXPECT_THROW(m->group->ProcessCommit(out.commit, ByRef(proposals)), RemovedFromGroup);
            EXPECT_EQ(m->group->Epoch(), epoch);
        } else {
            m->group->ProcessCommit(out.commit, ByRef(proposals));
        }
    }
    ASSERT_EQ(out.welcome.has_value(), !joiners.empty());
    for (Member *j : joiners) j->group = GroupState::Join(*out.welcome, j->bundle, j->signature.privateKey);
}

void ExpectSameEpoch(const std::vector<Member *> &members) {
    const GroupState &first = *members.front()->group;
    for (Member *m : members) {
        EXPECT_EQ(m->group->Epoch(), first.Epoch());
        EXPECT_EQ(m->group->Secrets().epochAuthenticator, first.Secrets().epochAuthenticator);
        EXPECT_EQ(m->group->Export("svcpp test", {}, 32), first.Export("svcpp test", {}, 32));
        EXPECT_EQ(m->group->Tree().RootTreeHash(), first.Tree().RootTreeHash());
        EXPECT_EQ(m->group->MemberUserIds(), first.MemberUserIds());
    }
}

TEST(GroupState, CreatedGroupHasOneMemberAndTheExternalSender) {
    Server server;
    Member alice(100);
    GroupState g = GroupState::Create(kGroupId, alice.bundle, alice.signature.privateKey, server.Senders());
    EXPECT_EQ(g.Epoch(), 0u);
    EXPECT_EQ(g.MemberUserIds(), std::vector<uint64_t>{100});
    ASSERT_EQ(g.ExternalSenders().size(), 1u);
    EXPECT_EQ(g.ExternalSenders()[0].signatureKey, server.key.publicKey);
    EXPECT_EQ(g.LeafOf(100), 0u);
    EXPECT_FALSE(g.LeafOf(7).has_value());
}

TEST(GroupState, AddsJoinThroughTheWelcomeAndRemovesTakeAPath) {
    Server server;
    Member alice(100), bob(200), carol(300), dave(400);
    alice.group = GroupState::Create(kGroupId, alice.bundle, alice.signature.privateKey, server.Senders());

    CommitAndDeliver(
        alice, {&alice},
        {server.Add(*alice.group, bob.bundle.keyPackage), server.Add(*alice.group, carol.bundle.keyPackage)},
        {&bob, &carol});
    ExpectSameEpoch({&alice, &bob, &carol});
    EXPECT_EQ(alice.group->Epoch(), 1u);
    EXPECT_EQ(bob.group->MemberUserIds(), (std::vector<uint64_t>{100, 200, 300}));

    // Bob removes Alice (a path) and adds Dave in the same commit: Dave's Welcome carries a path secret.
    CommitAndDeliver(bob, {&alice, &bob, &carol},
                     {server.Remove(*bob.group, 0), server.Add(*bob.group, dave.bundle.keyPackage)}, {&dave});
    ExpectSameEpoch({&bob, &carol, &dave});
    EXPECT_EQ(bob.group->MemberUserIds(), (std::vector<uint64_t>{400, 200, 300}));

    // Alice could not follow: the commit removed her.
    EXPECT_EQ(alice.group->Epoch(), 1u);

    // Dave (who joined through a path commit) processes a later path commit from Carol, and commits one himself.
    CommitAndDeliver(carol, {&bob, &carol, &dave}, {server.Remove(*carol.group, 1)});
    ExpectSameEpoch({&carol, &dave});
    CommitAndDeliver(dave, {&carol, &dave}, {server.Remove(*dave.group, 2)});
    ExpectSameEpoch({&dave});
    EXPECT_EQ(dave.group->MemberUserIds(), std::vector<uint64_t>{400});
}

TEST(GroupState, TwentyFiveMembersFollowRemovesAcrossTheTree) {
    Server server;
    std::vector<Member> members;
    members.reserve(25);
    for (uint64_t i = 0; i < 25; ++i) members.emplace_back(1000 + i);
    members[0].group =
        GroupState::Create(kGroupId, members[0].bundle, members[0].signature.privateKey, server.Senders());
    std::vector<ExternalProposal> adds;
    std::vector<Member *> joiners;
    for (std::size_t i = 1; i < members.size(); ++i) {
        adds.push_back(server.Add(*members[0].group, members[i].bundle.keyPackage));
        joiners.push_back(&members[i]);
    }
    CommitAndDeliver(members[0], {&members[0]}, adds, joiners);
    std::vector<Member *> present;
    for (auto &m : members) present.push_back(&m);
    ExpectSameEpoch(present);

    // Members in different subtrees commit removals of others.
    for (std::size_t committer : {7u, 19u, 3u}) {
        Member &c = members[committer];
        Member *victim = present.back() == &c ? present.front() : present.back();
        uint32_t leaf = *c.group->LeafOf(victim->userId);
        CommitAndDeliver(c, present, {server.Remove(*c.group, leaf)});
        std::erase(present, victim);
        ExpectSameEpoch(present);
    }
    EXPECT_EQ(present.front()->group->MemberUserIds().size(), 22u);
}

TEST(GroupState, OnlyTheWinningCommitApplies) {
    Server server;
    Member alice(100), bob(200), carol(300);
    alice.group = GroupState::Create(kGroupId, alice.bundle, alice.signature.privateKey, server.Senders());
    CommitAndDeliver(alice, {&alice}, {server.Add(*alice.group, bob.bundle.keyPackage)}, {&bob});

    // Both commit the same proposal; the server picks Bob's.
    std::vector<ExternalProposal> proposals = {server.Add(*alice.group, carol.bundle.keyPackage)};
    CommitOutput aliceCommit = alice.group->Commit(proposals);
    CommitOutput bobCommit = bob.group->Commit(proposals);
    EXPECT_TRUE(alice.group->HasPendingCommit());
    EXPECT_EQ(alice.group->Epoch(), 1u);  // pending: not applied yet
    alice.group->ProcessCommit(bobCommit.commit, ByRef(proposals));
    EXPECT_FALSE(alice.group->HasPendingCommit());
    bob.group->ProcessCommit(bobCommit.commit, ByRef(proposals));
    carol.group = GroupState::Join(*bobCommit.welcome, carol.bundle, carol.signature.privateKey);
    ExpectSameEpoch({&alice, &bob, &carol});
    // Alice's losing Welcome is for an epoch nobody is in; its commit is for the previous epoch.
    EXPECT_THROW(bob.group->ProcessCommit(aliceCommit.commit, ByRef(proposals)), Error);
}

TEST(GroupState, DiscardedCommitIsForgotten) {
    Server server;
    Member alice(100), bob(200);
    alice.group = GroupState::Create(kGroupId, alice.bundle, alice.signature.privateKey, server.Senders());
    CommitOutput out = alice.group->Commit({server.Add(*alice.group, bob.bundle.keyPackage)});
    alice.group->DiscardPendingCommit();
    EXPECT_FALSE(alice.group->HasPendingCommit());
    EXPECT_THROW(alice.group->MergePendingCommit(), Error);
    EXPECT_EQ(alice.group->Epoch(), 0u);
    // Without the pending state our own commit cannot be processed.
    EXPECT_THROW(alice.group->ProcessCommit(out.commit), Error);
}

TEST(GroupState, RefusesBadCommitsAndLeavesTheStateUnchanged) {
    Server server;
    Member alice(100), bob(200), carol(300);
    alice.group = GroupState::Create(kGroupId, alice.bundle, alice.signature.privateKey, server.Senders());
    CommitAndDeliver(
        alice, {&alice},
        {server.Add(*alice.group, bob.bundle.keyPackage), server.Add(*alice.group, carol.bundle.keyPackage)},
        {&bob, &carol});
    std::vector<ExternalProposal> proposals = {server.Remove(*alice.group, 2)};
    CommitOutput out = alice.group->Commit(proposals);
    Bytes authenticatorBefore = bob.group->Secrets().epochAuthenticator;

    for (std::size_t i = 0; i < out.commit.size(); i += 37) {
        Bytes tampered = out.commit;
        tampered[i] ^= 0x01;
        EXPECT_THROW(bob.group->ProcessCommit(tampered, ByRef(proposals)), Error) << "byte " << i;
    }
    Bytes truncated(out.commit.begin(), out.commit.end() - 1);
    EXPECT_THROW(bob.group->ProcessCommit(truncated, ByRef(proposals)), DecodeError);
    EXPECT_THROW(bob.group->ProcessCommit(out.commit), Error);  // the referenced proposal is unknown
    EXPECT_EQ(bob.group->Epoch(), 1u);
    EXPECT_EQ(bob.group->Secrets().epochAuthenticator, authenticatorBefore);

    bob.group->ProcessCommit(out.commit, ByRef(proposals));  // the genuine commit still applies
    alice.group->MergePendingCommit();
    EXPECT_EQ(bob.group->Secrets().epochAuthenticator, alice.group->Secrets().epochAuthenticator);
    // Only an authentic commit tells Carol she was removed; a forged one is just refused.
    Bytes forged = out.commit;
    forged[forged.size() - 5] ^= 1;  // inside the membership tag
    try {
        carol.group->ProcessCommit(forged, ByRef(proposals));
        ADD_FAILURE() << "a forged commit applied";
    } catch (const RemovedFromGroup &) {
        ADD_FAILURE() << "a forged commit was taken as authentic";
    } catch (const Error &) {}
    EXPECT_THROW(carol.group->ProcessCommit(out.commit, ByRef(proposals)), RemovedFromGroup);
}

TEST(GroupState, RefusesBadProposalsToCommit) {
    Server server;
    Member alice(100), bob(200);
    alice.group = GroupState::Create(kGroupId, alice.bundle, alice.signature.privateKey, server.Senders());
    EXPECT_THROW(alice.group->Commit({}), Error);
    EXPECT_THROW(alice.group->Commit({server.Remove(*alice.group, 0)}), Error);  // removes us
    EXPECT_THROW(alice.group->Commit({server.Remove(*alice.group, 5)}), Error);  // not a member
    ExternalProposal stale = server.Add(*alice.group, bob.bundle.keyPackage);
    stale.epoch = 3;
    EXPECT_THROW(alice.group->Commit({stale}), Error);
    ExternalProposal add = server.Add(*alice.group, bob.bundle.keyPackage);
    EXPECT_THROW(alice.group->Commit({add, add}), Error);  // listed twice
    EXPECT_FALSE(alice.group->HasPendingCommit());
    EXPECT_EQ(alice.group->Epoch(), 0u);
}

TEST(GroupState, CreateRefusesAMismatchedSignatureKey) {
    Server server;
    Member alice(100);
    EXPECT_THROW(GroupState::Create(kGroupId, alice.bundle, primitives::GenerateP256().privateKey, server.Senders()),
                 Error);
}

}  // namespace
}  // namespace svcpp::core::mls
