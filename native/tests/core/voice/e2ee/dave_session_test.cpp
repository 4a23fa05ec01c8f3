// The DAVE session's protocol logic against a fake MLS group (the real group has its own suites): which opcode
// answers which, when keys switch, recovery after a bad commit or Welcome, the sole-member reset, passthrough only
// around a downgrade, and that the media cryptor it keys really decrypts across a transition (real transforms).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <numeric>

#include "fake_clock.hpp"
#include "mls/external_proposal.hpp"
#include "mls/group_state.hpp"
#include "mls/primitives.hpp"
#include "voice/e2ee/dave_session.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;
using nlohmann::json;
using Frame = std::vector<uint8_t>;

namespace {

constexpr uint64_t kAlice = 1001, kBob = 1002;

/** A scripted MLS group: epochs are numbers, exporter secrets a function of the epoch, failures on request. */
class FakeGroup final : public DaveMlsGroup {
  public:
    mls::Bytes ResetAndCreateKeyPackage() override {
        ++keyPackages;
        inGroup = false;
        pending.clear();
        ownCommit.reset();
        return mls::Bytes{0xCB, static_cast<uint8_t>(keyPackages)};
    }
    void SetExternalSender(mls::ByteView s) override {
        if (s.empty()) throw mls::Error("empty external sender");
        externalSender.assign(s.begin(), s.end());
    }
    void AppendProposals(const std::vector<mls::Bytes> &p) override {
        if (refuseProposals) throw mls::Error("wrong epoch");
        pending.insert(pending.end(), p.begin(), p.end());
    }
    void RevokeProposals(const std::vector<mls::Bytes> &) override { pending.clear(); }
    std::optional<DaveCommitWelcome> CommitPendingProposals() override {
        if (pending.empty()) return std::nullopt;
        inGroup = true;  // our own group exists from here (epoch 0 → creates it)
        ownCommit = mls::Bytes{0xC0, static_cast<uint8_t>(epoch + 1)};
        return DaveCommitWelcome{*ownCommit, mls::Bytes{0x3E}};
    }
    bool MergeIfOwnCommit(mls::ByteView commit) override {
        if (!ownCommit || !std::equal(commit.begin(), commit.end(), ownCommit->begin(), ownCommit->end())) return false;
        Advance();
        return true;
    }
    void ProcessCommit(mls::ByteView) override {
        if (removedByCommit) throw mls::RemovedFromGroup("the commit removes us");
        if (refuseCommit) throw mls::Error("bad confirmation tag");
        Advance();
    }
    void ProcessWelcome(mls::ByteView) override {
        if (refuseWelcome) throw mls::Error("no secrets for us");
        inGroup = true;
        epoch = welcomeEpoch;
        pending.clear();
        ownCommit.reset();
    }
    bool InGroup() const override { return inGroup; }
    uint64_t Epoch() const override { return epoch; }
    mls::Bytes ExporterSecret() const override { return mls::Bytes(32, static_cast<uint8_t>(epoch)); }
    std::vector<uint64_t> MemberUserIds() const override { return members; }
    mls::Bytes EpochAuthenticator() const override { return mls::Bytes(32, static_cast<uint8_t>(epoch)); }

    void Advance() {
        ++epoch;
        pending.clear();
        ownCommit.reset();
    }

    int keyPackages = 0;
    bool inGroup = false;
    uint64_t epoch = 0;
    uint64_t welcomeEpoch = 1;
    std::vector<mls::Bytes> pending;
    std::optional<mls::Bytes> ownCommit;
    mls::Bytes externalSender;
    std::vector<uint64_t> members{kAlice, kBob};
    bool refuseProposals = false, refuseCommit = false, refuseWelcome = false, removedByCommit = false;
};

struct Sent {
    std::vector<mls::Bytes> binary;
    std::vector<std::pair<int, json>> jsons;
    std::vector<DaveEncryptionState> states;
    std::vector<std::string> warnings;
};

struct Harness {
    test::FakeClock clock;
    FakeGroup group;
    DaveFrameTransform transform{kAlice, clock};
    Sent sent;
    DaveSession session{group,
                        transform,
                        {[this](mls::Bytes m) { sent.binary.push_back(std::move(m)); },
                         [this](int op, const json &d) { sent.jsons.emplace_back(op, d); },
                         [this](const DaveEncryptionState &s) { sent.states.push_back(s); },
                         [this](const std::string &w) { sent.warnings.push_back(w); }}};

    /** Session Description with DAVE, then op 25: the session has sent its KeyPackage. */
    void Join() {
        session.OnSessionDescription(1);
        session.OnBinary(dave::Op::ExternalSender, mls::Bytes{1, 2, 3});
    }
};

mls::Bytes Announce(uint16_t id, const mls::Bytes &commit) { return dave::EncodeTransitionPayload(id, commit); }

Frame OpusFrame(uint8_t seed) {
    Frame f(60);
    std::iota(f.begin(), f.end(), seed);
    f[0] = 0x78;
    return f;
}

std::optional<Frame> RoundTrip(DaveFrameTransform &from, uint64_t fromUser, DaveFrameTransform &to, uint8_t seed) {
    Frame frame = OpusFrame(seed);
    Frame wire(frame.size() + from.MaxEncryptOverhead());
    auto size = from.Encrypt(1, frame, wire);
    if (!size) return std::nullopt;
    wire.resize(*size);
    Frame out(wire.size());
    auto plain = to.Decrypt(fromUser, 1, wire, out);
    if (!plain) return std::nullopt;
    out.resize(*plain);
    return out;
}

}  // namespace

TEST(DaveSession, ExternalSenderAfterSessionDescriptionSendsAKeyPackage) {
    Harness h;
    h.Join();
    ASSERT_EQ(h.sent.binary.size(), 1u);
    EXPECT_EQ(h.sent.binary[0], (mls::Bytes{26, 0xCB, 1}));
    EXPECT_EQ(h.group.externalSender, (mls::Bytes{1, 2, 3}));
    EXPECT_EQ(h.session.State().protocolVersion, 1);
    EXPECT_FALSE(h.session.State().passthrough);
}

TEST(DaveSession, RefusedExternalSenderSendsNoKeyPackage) {
    Harness h;
    h.session.OnSessionDescription(1);
    h.session.OnBinary(dave::Op::ExternalSender, mls::Bytes{});
    EXPECT_TRUE(h.sent.binary.empty());
    EXPECT_EQ(h.sent.warnings.size(), 1u);
}

TEST(DaveSession, ProposalsAreCommittedAtOnceWithTheirWelcome) {
    Harness h;
    h.Join();
    auto server = mls::primitives::GenerateP256();
    mls::Bytes remove = mls::CreateExternalProposal(server.privateKey, 0, mls::Bytes(8, 1), 0, std::nullopt, 1);
    h.session.OnBinary(dave::Op::Proposals, dave::EncodeProposals({false, {remove}}));
    ASSERT_EQ(h.group.pending.size(), 1u);
    EXPECT_EQ(h.group.pending[0], remove);
    ASSERT_EQ(h.sent.binary.size(), 2u);
    EXPECT_EQ(h.sent.binary[1], (mls::Bytes{28, 0xC0, 1, 0x3E}));
}

TEST(DaveSession, RevokedProposalsLeaveNothingToCommit) {
    Harness h;
    h.Join();
    h.group.pending.push_back(mls::Bytes{1});
    h.session.OnBinary(dave::Op::Proposals, dave::EncodeProposals({true, {mls::Bytes(32, 7)}}));
    EXPECT_EQ(h.sent.binary.size(), 1u);  // only the KeyPackage
}

TEST(DaveSession, RefusedProposalsAreNotCommitted) {
    Harness h;
    h.Join();
    h.group.refuseProposals = true;
    auto server = mls::primitives::GenerateP256();
    mls::Bytes remove = mls::CreateExternalProposal(server.privateKey, 0, mls::Bytes(8, 1), 0, std::nullopt, 1);
    h.session.OnBinary(dave::Op::Proposals, dave::EncodeProposals({false, {remove}}));
    EXPECT_EQ(h.sent.binary.size(), 1u);
    EXPECT_EQ(h.sent.warnings.size(), 1u);
}

TEST(DaveSession, MalformedBinaryIsIgnoredWithAWarning) {
    Harness h;
    h.Join();
    h.session.OnBinary(dave::Op::Proposals, mls::Bytes{7});
    h.session.OnBinary(dave::Op::Welcome, mls::Bytes{0});
    EXPECT_EQ(h.sent.warnings.size(), 2u);
    EXPECT_EQ(h.sent.binary.size(), 1u);
    EXPECT_TRUE(h.sent.jsons.empty());
}

TEST(DaveSession, OwnWinningCommitIsMergedThenReadyThenSendKeyAtExecute) {
    Harness h;
    h.Join();
    h.group.pending.push_back(mls::Bytes{1});
    auto commit = h.group.CommitPendingProposals();
    h.session.OnBinary(dave::Op::AnnounceCommitTransition, Announce(7, commit->commit));
    EXPECT_EQ(h.group.epoch, 1u);
    ASSERT_EQ(h.sent.jsons.size(), 1u);
    EXPECT_EQ(h.sent.jsons[0].first, 23);
    EXPECT_EQ(h.sent.jsons[0].second, (json{{"transition_id", 7}}));
    EXPECT_TRUE(h.session.State().transitionPending);
    EXPECT_EQ(h.session.State().epoch, 0u);  // our media key has not switched yet

    h.session.OnJson(22, json{{"transition_id", 7}});
    EXPECT_FALSE(h.session.State().transitionPending);
    EXPECT_EQ(h.session.State().epoch, 1u);
}

TEST(DaveSession, SomeoneElsesCommitIsProcessed) {
    Harness h;
    h.Join();
    h.group.inGroup = true;
    h.session.OnBinary(dave::Op::AnnounceCommitTransition, Announce(3, mls::Bytes{0xC0, 0x99}));
    EXPECT_EQ(h.group.epoch, 1u);
    EXPECT_EQ(h.sent.jsons.at(0).first, 23);
}

TEST(DaveSession, ACommitWhileWaitingForAWelcomeIsIgnored) {
    Harness h;
    h.Join();
    h.session.OnBinary(dave::Op::AnnounceCommitTransition, Announce(3, mls::Bytes{0xC0, 0x99}));
    EXPECT_EQ(h.group.epoch, 0u);
    EXPECT_TRUE(h.sent.jsons.empty());
}

TEST(DaveSession, AnInvalidCommitSendsOp31AndAFreshKeyPackage) {
    Harness h;
    h.Join();
    h.group.inGroup = true;
    h.group.refuseCommit = true;
    h.session.OnBinary(dave::Op::AnnounceCommitTransition, Announce(9, mls::Bytes{0xC0, 0x99}));
    ASSERT_EQ(h.sent.jsons.size(), 1u);
    EXPECT_EQ(h.sent.jsons[0].first, 31);
    EXPECT_EQ(h.sent.jsons[0].second, (json{{"transition_id", 9}}));
    ASSERT_EQ(h.sent.binary.size(), 2u);
    EXPECT_EQ(h.sent.binary[1], (mls::Bytes{26, 0xCB, 2}));
    EXPECT_FALSE(h.group.inGroup);
}

TEST(DaveSession, ACommitRemovingUsSendsNoOp31ButAFreshKeyPackage) {
    Harness h;
    h.Join();
    h.group.inGroup = true;
    h.group.removedByCommit = true;
    h.session.OnBinary(dave::Op::AnnounceCommitTransition, Announce(9, mls::Bytes{0xC0, 0x99}));
    EXPECT_TRUE(h.sent.jsons.empty());
    ASSERT_EQ(h.sent.binary.size(), 2u);
    EXPECT_EQ(h.sent.binary[1], (mls::Bytes{26, 0xCB, 2}));
}

TEST(DaveSession, AnInvalidWelcomeSendsOp31AndAFreshKeyPackage) {
    Harness h;
    h.Join();
    h.group.refuseWelcome = true;
    h.session.OnBinary(dave::Op::Welcome, Announce(4, mls::Bytes{0x3E}));
    ASSERT_EQ(h.sent.jsons.size(), 1u);
    EXPECT_EQ(h.sent.jsons[0].first, 31);
    EXPECT_EQ(h.sent.jsons[0].second, (json{{"transition_id", 4}}));
    EXPECT_EQ(h.sent.binary.back(), (mls::Bytes{26, 0xCB, 2}));
}

TEST(DaveSession, WelcomeJoinsAndTransitionZeroExecutesAtOnce) {
    Harness h;
    h.Join();
    h.group.welcomeEpoch = 5;
    h.session.OnBinary(dave::Op::Welcome, Announce(0, mls::Bytes{0x3E}));
    EXPECT_TRUE(h.sent.jsons.empty());  // nothing to wait for: no op 23
    EXPECT_EQ(h.session.State().epoch, 5u);
    EXPECT_FALSE(h.session.State().transitionPending);
}

TEST(DaveSession, ExecuteOfAnUnknownTransitionChangesNothing) {
    Harness h;
    h.Join();
    h.session.OnJson(22, json{{"transition_id", 12}});
    h.session.OnJson(22, json{{"transition_id", "12"}});
    h.session.OnJson(22, json{{"transition_id", 70000}});
    EXPECT_EQ(h.session.State().epoch, 0u);
    EXPECT_EQ(h.sent.warnings.size(), 3u);
}

TEST(DaveSession, PrepareEpochOneStartsOverWithAFreshKeyPackage) {
    Harness h;
    h.Join();
    h.group.inGroup = true;
    h.session.OnJson(24, json{{"protocol_version", 1}, {"epoch", 1}});
    h.session.OnJson(21, json{{"protocol_version", 1}, {"transition_id", 0}});
    EXPECT_EQ(h.sent.binary.back(), (mls::Bytes{26, 0xCB, 2}));
    EXPECT_FALSE(h.group.inGroup);
    EXPECT_TRUE(h.sent.jsons.empty());  // transition 0 needs no op 23
    EXPECT_EQ(h.session.State().protocolVersion, 1);
}

TEST(DaveSession, PrepareEpochOfALaterEpochNeedsNothing) {
    Harness h;
    h.Join();
    h.session.OnJson(24, json{{"protocol_version", 1}, {"epoch", 4}});
    EXPECT_EQ(h.sent.binary.size(), 1u);
}

TEST(DaveSession, DowngradeAcceptsClearFramesFromPrepareAndSendsThemFromExecute) {
    Harness h;
    h.Join();
    h.group.welcomeEpoch = 1;
    h.session.OnBinary(dave::Op::Welcome, Announce(0, mls::Bytes{0x3E}));
    DaveFrameTransform bob{kBob, h.clock};
    bob.SetEpochKeys(h.group.ExporterSecret(), {kAlice, kBob});
    Frame clear = OpusFrame(3), out(clear.size());
    EXPECT_FALSE(h.transform.Decrypt(kBob, 1, clear, out));  // no passthrough: refused

    h.session.OnJson(21, json{{"protocol_version", 0}, {"transition_id", 2}});
    EXPECT_TRUE(h.session.State().passthrough);
    EXPECT_EQ(h.sent.jsons.back().first, 23);
    EXPECT_TRUE(h.transform.Decrypt(kBob, 1, clear, out));  // accepted from prepare on
    Frame sentOut(clear.size() + h.transform.MaxEncryptOverhead());
    EXPECT_NE(*h.transform.Encrypt(1, clear, sentOut), clear.size());  // we still encrypt

    h.session.OnJson(22, json{{"transition_id", 2}});
    EXPECT_EQ(h.session.State().protocolVersion, 0);
    EXPECT_EQ(*h.transform.Encrypt(1, clear, sentOut), clear.size());  // now in clear
}

TEST(DaveSession, NoDaveCallIsPassthroughFromTheStart) {
    Harness h;
    h.session.OnSessionDescription(0);
    EXPECT_TRUE(h.session.State().passthrough);
    EXPECT_EQ(h.session.State().protocolVersion, 0);
}

TEST(DaveSession, MediaDecryptsAcrossATransitionInBothOrdersOfExecute) {
    // Alice (the session) and Bob (a transform keyed by hand) share epoch 1; a commit moves both to epoch 2. Bob
    // switches his send key before Alice executes: Alice must already decrypt epoch 2. Alice's frames sent before
    // her execute are epoch 1: Bob keeps those keys.
    Harness h;
    h.Join();
    h.group.welcomeEpoch = 1;
    h.session.OnBinary(dave::Op::Welcome, Announce(0, mls::Bytes{0x3E}));
    DaveFrameTransform bob{kBob, h.clock};
    bob.SetEpochKeys(h.group.ExporterSecret(), {kAlice, kBob});
    ASSERT_TRUE(RoundTrip(bob, kBob, h.transform, 1));
    ASSERT_TRUE(RoundTrip(h.transform, kAlice, bob, 2));

    h.session.OnBinary(dave::Op::AnnounceCommitTransition, Announce(5, mls::Bytes{0xC0, 2}));
    ASSERT_EQ(h.group.epoch, 2u);
    bob.SetEpochKeys(h.group.ExporterSecret(), {kAlice, kBob});  // Bob executed first
    EXPECT_TRUE(RoundTrip(bob, kBob, h.transform, 3));
    EXPECT_TRUE(RoundTrip(h.transform, kAlice, bob, 4));  // Alice still on epoch 1
    h.session.OnJson(22, json{{"transition_id", 5}});
    EXPECT_TRUE(RoundTrip(h.transform, kAlice, bob, 5));
    EXPECT_EQ(h.transform.Stats().decrypted, 2u);
}

TEST(DaveSession, StateChangesArePublishedOnceEach) {
    Harness h;
    h.Join();
    h.session.OnBinary(dave::Op::Welcome, Announce(8, mls::Bytes{0x3E}));
    h.session.OnJson(22, json{{"transition_id", 8}});
    ASSERT_EQ(h.sent.states.size(), 3u);
    EXPECT_EQ(h.sent.states[0], (DaveEncryptionState{1, 0, false, false}));
    EXPECT_EQ(h.sent.states[1], (DaveEncryptionState{1, 0, true, false}));
    EXPECT_EQ(h.sent.states[2], (DaveEncryptionState{1, 1, false, false}));
}

TEST(DaveSession, PrivacyCodeIsEmptyWithoutAGroupAndThirtyDigitsWithOne) {
    Harness h;
    h.Join();
    EXPECT_EQ(h.session.PrivacyCode(), "");
    h.session.OnBinary(dave::Op::Welcome, Announce(0, mls::Bytes{0x3E}));
    EXPECT_EQ(h.session.PrivacyCode().size(), 30u);
}

TEST(DaveDisplayableCode, GroupsOfBigEndianBytesModuloAPowerOfTen) {
    mls::Bytes data{0x00, 0x00, 0x00, 0x00, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    // 0x0000000001 = 1 → "00001"; 0xFFFFFFFFFF = 1099511627775 → mod 100000 = 27775.
    EXPECT_EQ(DisplayableCode(data, 10, 5), "0000127775");
    EXPECT_THROW(DisplayableCode(data, 12, 5), std::invalid_argument);
    EXPECT_THROW(DisplayableCode(data, 15, 5), std::invalid_argument);
    EXPECT_THROW(DisplayableCode(data, 10, 0), std::invalid_argument);
}
