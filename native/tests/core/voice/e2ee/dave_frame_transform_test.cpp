// The DAVE frame cryptor end to end in one process: two or three members' transforms keyed from the same MLS exporter
// secret, frames passed between them, and every rejection rule.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "fake_clock.hpp"
#include "voice/e2ee/dave_frame_transform.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;
using namespace std::chrono_literals;
using Frame = std::vector<uint8_t>;

namespace {

constexpr uint64_t kAlice = 1001, kBob = 1002, kCarol = 1003;

mls::Bytes Exporter(uint8_t fill) { return mls::Bytes(32, fill); }

Frame OpusFrame(std::size_t size, uint8_t seed) {
    Frame f(size);
    std::iota(f.begin(), f.end(), seed);
    f[0] = 0x78;  // a plausible TOC byte; anything but the silence frame
    return f;
}

Frame Encrypt(DaveFrameTransform &sender, const Frame &frame) {
    Frame out(frame.size() + sender.MaxEncryptOverhead());
    auto size = sender.Encrypt(1, frame, out);
    if (!size) return {};
    out.resize(*size);
    return out;
}

std::optional<Frame> Decrypt(DaveFrameTransform &receiver, uint64_t from, const Frame &wire) {
    Frame out(wire.size());
    auto size = receiver.Decrypt(from, 1, wire, out);
    if (!size) return std::nullopt;
    out.resize(*size);
    return out;
}

uint64_t Dropped(const DaveFrameTransform &t, DecryptFailure why) {
    auto stats = t.Stats();
    auto it = stats.dropped.find(why);
    return it == stats.dropped.end() ? 0 : it->second;
}

struct Call {
    test::FakeClock clock;
    DaveFrameTransform alice{kAlice, clock};
    DaveFrameTransform bob{kBob, clock};
    Call() {
        alice.SetEpochKeys(Exporter(1), {kAlice, kBob});
        bob.SetEpochKeys(Exporter(1), {kAlice, kBob});
    }
};

}  // namespace

TEST(DaveFrameTransform, FrameLayoutMatchesTheProtocol) {
    Call call;
    Frame frame = OpusFrame(23, 5);
    Frame wire = Encrypt(call.alice, frame);
    // 23 bytes + 8-byte tag + nonce 1 (1 byte) + size byte 12 + FA FA = 35 bytes (as davey produces).
    ASSERT_EQ(wire.size(), 35u);
    EXPECT_EQ(wire[31], 0x01);
    EXPECT_EQ(wire[32], 0x0c);
    EXPECT_EQ(wire[33], 0xfa);
    EXPECT_EQ(wire[34], 0xfa);
    EXPECT_NE(Frame(wire.begin(), wire.begin() + 23), frame);  // the whole Opus frame is encrypted
}

TEST(DaveFrameTransform, RoundTripsManyFrames) {
    Call call;
    for (uint8_t i = 0; i < 200; ++i) {
        Frame frame = OpusFrame(40 + i % 100, i);
        auto decoded = Decrypt(call.bob, kAlice, Encrypt(call.alice, frame));
        ASSERT_TRUE(decoded) << int(i);
        EXPECT_EQ(*decoded, frame);
    }
    EXPECT_EQ(call.bob.Stats().decrypted, 200u);
}

TEST(DaveFrameTransform, TamperedFramesAreRejected) {
    Call call;
    Frame wire = Encrypt(call.alice, OpusFrame(60, 1));
    for (std::size_t position : {std::size_t{0}, std::size_t{30}, std::size_t{60}, std::size_t{67}}) {  // body, tag
        Frame tampered = wire;
        tampered[position] ^= 0x01;
        EXPECT_FALSE(Decrypt(call.bob, kAlice, tampered)) << position;
    }
    EXPECT_EQ(Dropped(call.bob, DecryptFailure::Authentication), 4u);
    // The untouched frame still decrypts: failed attempts did not consume its nonce.
    EXPECT_TRUE(Decrypt(call.bob, kAlice, wire));
}

TEST(DaveFrameTransform, AFrameAttributedToAnotherSenderIsRejected) {
    test::FakeClock clock;
    DaveFrameTransform alice{kAlice, clock}, bob{kBob, clock};
    alice.SetEpochKeys(Exporter(1), {kAlice, kBob, kCarol});
    bob.SetEpochKeys(Exporter(1), {kAlice, kBob, kCarol});
    EXPECT_FALSE(Decrypt(bob, kCarol, Encrypt(alice, OpusFrame(50, 2))));  // each sender has its own key
}

TEST(DaveFrameTransform, ReplayedFramesAreRejected) {
    Call call;
    Frame wire = Encrypt(call.alice, OpusFrame(50, 3));
    EXPECT_TRUE(Decrypt(call.bob, kAlice, wire));
    EXPECT_FALSE(Decrypt(call.bob, kAlice, wire));
    EXPECT_EQ(Dropped(call.bob, DecryptFailure::Replayed), 1u);
}

TEST(DaveFrameTransform, ReorderedFramesInsideTheWindowDecryptOnce) {
    Call call;
    Frame f1 = Encrypt(call.alice, OpusFrame(50, 1));
    Frame f2 = Encrypt(call.alice, OpusFrame(50, 2));
    Frame f3 = Encrypt(call.alice, OpusFrame(50, 3));
    EXPECT_TRUE(Decrypt(call.bob, kAlice, f1));
    EXPECT_TRUE(Decrypt(call.bob, kAlice, f3));
    EXPECT_TRUE(Decrypt(call.bob, kAlice, f2));   // late but remembered as missing
    EXPECT_FALSE(Decrypt(call.bob, kAlice, f2));  // only once
}

TEST(DaveFrameTransform, FramesOlderThanTheMissingNonceWindowAreRejected) {
    Call call;
    std::vector<Frame> frames;
    for (int i = 0; i < 1003; ++i) frames.push_back(Encrypt(call.alice, OpusFrame(30, static_cast<uint8_t>(i))));
    EXPECT_TRUE(Decrypt(call.bob, kAlice, frames[0]));     // nonce 1
    EXPECT_TRUE(Decrypt(call.bob, kAlice, frames[1002]));  // nonce 1003: only nonces 3..1002 are remembered as missing
    EXPECT_FALSE(Decrypt(call.bob, kAlice, frames[1]));    // nonce 2: too old to tell from a replay
    EXPECT_FALSE(Decrypt(call.bob, kAlice, frames[0]));    // nonce 1: a replay
    EXPECT_TRUE(Decrypt(call.bob, kAlice, frames[2]));     // nonce 3: the oldest still in the window
    EXPECT_EQ(Dropped(call.bob, DecryptFailure::Replayed), 2u);
}

TEST(DaveFrameTransform, SilenceFramesPassInClearBothWays) {
    Call call;
    Frame silence = {0xF8, 0xFF, 0xFE};
    Frame wire = Encrypt(call.alice, silence);
    EXPECT_EQ(wire, silence);
    EXPECT_EQ(Decrypt(call.bob, kAlice, wire), silence);
}

TEST(DaveFrameTransform, WithoutKeysNothingIsSentOrAccepted) {
    test::FakeClock clock;
    DaveFrameTransform alone{kAlice, clock};
    Frame frame = OpusFrame(40, 9);
    EXPECT_TRUE(Encrypt(alone, frame).empty());
    Call call;
    EXPECT_FALSE(Decrypt(alone, kAlice, Encrypt(call.alice, frame)));
    EXPECT_EQ(Dropped(alone, DecryptFailure::NoKey), 1u);
}

TEST(DaveFrameTransform, UnencryptedFramesAreRefusedOutsidePassthrough) {
    Call call;
    Frame clear = OpusFrame(40, 4);
    EXPECT_FALSE(Decrypt(call.bob, kAlice, clear));
    EXPECT_EQ(Dropped(call.bob, DecryptFailure::Unencrypted), 1u);
}

TEST(DaveFrameTransform, PassthroughAcceptsClearFramesUntilItsWindowCloses) {
    Call call;
    call.alice.SetPassthrough(true);
    call.bob.SetPassthrough(true);
    Frame frame = OpusFrame(40, 4);
    Frame wire = Encrypt(call.alice, frame);
    EXPECT_EQ(wire, frame);  // sent in clear
    EXPECT_EQ(Decrypt(call.bob, kAlice, wire), frame);

    call.alice.SetPassthrough(false);
    call.bob.SetPassthrough(false);
    call.clock.Advance(9s);
    EXPECT_EQ(Decrypt(call.bob, kAlice, frame), frame);  // still inside the transition window
    call.clock.Advance(2s);
    EXPECT_FALSE(Decrypt(call.bob, kAlice, frame));
    EXPECT_EQ(Decrypt(call.bob, kAlice, Encrypt(call.alice, frame)), frame);  // encrypted frames decrypt as before
}

TEST(DaveFrameTransform, FramesOfThePreviousEpochDecryptDuringRetention) {
    Call call;
    // Bob moves to the next epoch first; Alice's frames in flight still use the old one.
    call.bob.SetEpochKeys(Exporter(2), {kAlice, kBob});
    Frame frame = OpusFrame(50, 7);
    EXPECT_EQ(Decrypt(call.bob, kAlice, Encrypt(call.alice, frame)), frame);
    call.alice.SetEpochKeys(Exporter(2), {kAlice, kBob});
    EXPECT_EQ(Decrypt(call.bob, kAlice, Encrypt(call.alice, frame)), frame);

    // A frame of the old epoch after the retention time is refused.
    test::FakeClock &clock = call.clock;
    DaveFrameTransform lagging{kAlice, clock};
    lagging.SetEpochKeys(Exporter(1), {kAlice, kBob});
    Frame late = Encrypt(lagging, frame);
    clock.Advance(11s);
    EXPECT_FALSE(Decrypt(call.bob, kAlice, late));
}

TEST(DaveFrameTransform, ARemovedMemberCannotDecryptTheNextEpoch) {
    test::FakeClock clock;
    DaveFrameTransform alice{kAlice, clock}, bob{kBob, clock}, carol{kCarol, clock};
    for (auto *t : {&alice, &bob, &carol}) t->SetEpochKeys(Exporter(1), {kAlice, kBob, kCarol});
    Frame frame = OpusFrame(50, 8);
    EXPECT_EQ(Decrypt(carol, kAlice, Encrypt(alice, frame)), frame);

    // Carol is removed: the others move to an epoch whose secret she never learns.
    alice.SetEpochKeys(Exporter(2), {kAlice, kBob});
    bob.SetEpochKeys(Exporter(2), {kAlice, kBob});
    Frame wire = Encrypt(alice, frame);
    EXPECT_EQ(Decrypt(bob, kAlice, wire), frame);
    EXPECT_FALSE(Decrypt(carol, kAlice, wire));

    // Her own last frames decrypt while retained, not afterwards.
    Frame fromCarol = Encrypt(carol, frame);
    EXPECT_EQ(Decrypt(bob, kCarol, fromCarol), frame);
    clock.Advance(11s);
    EXPECT_FALSE(Decrypt(bob, kCarol, Encrypt(carol, frame)));
}

TEST(DaveFrameTransform, ALateJoinerCannotDecryptEarlierFrames) {
    test::FakeClock clock;
    DaveFrameTransform alice{kAlice, clock}, bob{kBob, clock}, dave{kCarol, clock};
    alice.SetEpochKeys(Exporter(1), {kAlice, kBob});
    Frame before = Encrypt(alice, OpusFrame(50, 1));
    alice.SetEpochKeys(Exporter(2), {kAlice, kBob, kCarol});
    dave.SetEpochKeys(Exporter(2), {kAlice, kBob, kCarol});
    EXPECT_FALSE(Decrypt(dave, kAlice, before));
    Frame after = OpusFrame(50, 2);
    EXPECT_EQ(Decrypt(dave, kAlice, Encrypt(alice, after)), after);
}

TEST(DaveFrameTransform, CountersAreKeptPerSenderAndCountOnlyCiphertextSent) {
    test::FakeClock clock;
    DaveFrameTransform alice{kAlice, clock}, bob{kBob, clock}, carol{kCarol, clock};
    for (DaveFrameTransform *t : {&alice, &bob, &carol}) t->SetEpochKeys(Exporter(3), {kAlice, kBob, kCarol});
    Frame silence = {0xF8, 0xFF, 0xFE};
    for (uint8_t i = 0; i < 5; ++i) ASSERT_TRUE(Decrypt(carol, kAlice, Encrypt(alice, OpusFrame(40, i))));
    ASSERT_TRUE(Decrypt(carol, kAlice, Encrypt(alice, silence)));  // in clear: passed through, not encrypted
    for (uint8_t i = 0; i < 2; ++i) ASSERT_TRUE(Decrypt(carol, kBob, Encrypt(bob, OpusFrame(50, i))));
    Frame tampered = Encrypt(bob, OpusFrame(50, 9));
    tampered[3] ^= 0x01;
    ASSERT_FALSE(Decrypt(carol, kBob, tampered));

    EXPECT_EQ(alice.FramesEncrypted(), 5u);
    EXPECT_EQ(bob.FramesEncrypted(), 3u);
    DecryptStats fromAlice = carol.StatsFor(kAlice);
    EXPECT_EQ(fromAlice.decrypted, 5u);
    EXPECT_EQ(fromAlice.passedThrough, 1u);
    EXPECT_EQ(fromAlice.DroppedTotal(), 0u);
    DecryptStats fromBob = carol.StatsFor(kBob);
    EXPECT_EQ(fromBob.decrypted, 2u);
    EXPECT_EQ(fromBob.DroppedTotal(), 1u);
    EXPECT_EQ(fromBob.dropped[DecryptFailure::Authentication], 1u);
    DecryptStats never = carol.StatsFor(4242);
    EXPECT_EQ(never.decrypted + never.passedThrough + never.DroppedTotal(), 0u);

    // A member alone (no key yet) sends nothing, and counts nothing as sent.
    DaveFrameTransform alone{kAlice, clock};
    EXPECT_TRUE(Encrypt(alone, OpusFrame(40, 1)).empty());
    EXPECT_EQ(alone.FramesEncrypted(), 0u);
}
