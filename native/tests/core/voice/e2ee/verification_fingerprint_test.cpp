// DAVE's pairwise verification fingerprint (voice/e2ee/verification_fingerprint.hpp). The known answer was computed
// from the protocol text with Python's hashlib.scrypt over buffers built by hand (version 0x0000 || key || big-endian
// user id, sorted bytewise), not with this code.
#include <gtest/gtest.h>

#include <numeric>

#include "voice/e2ee/verification_fingerprint.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;

namespace {

constexpr uint64_t kAlice = 1001, kBob = 1002;

// Two P-256 public keys' shape: 0x04 || 64 bytes (uncompressed point); the values only need to differ.
mls::Bytes AliceKey() {
    mls::Bytes key(65);
    key[0] = 0x04;
    std::iota(key.begin() + 1, key.end(), uint8_t{1});
    return key;
}

mls::Bytes BobKey() {
    mls::Bytes key(65);
    key[0] = 0x04;
    for (std::size_t i = 1; i < key.size(); ++i) key[i] = static_cast<uint8_t>(65 - i);
    return key;
}

std::string Hex(const mls::Bytes &bytes) {
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (uint8_t b : bytes) out += {digits[b >> 4], digits[b & 15]};
    return out;
}

}  // namespace

TEST(VerificationFingerprint, MatchesTheProtocolsConstruction) {
    EXPECT_EQ(Hex(PairwiseFingerprint(kAlice, AliceKey(), kBob, BobKey())),
              "a623b12c71d73458391eb386adc85dc2dbe700295dbece84806cce54ee8ebb5b"
              "70d4dd07f4e20e5a265599ac0c2415ef94b5394ad10e8479b96074f24a5f7e33");
    EXPECT_EQ(DisplayableFingerprint(kAlice, AliceKey(), kBob, BobKey()),
              "849456566281949045856390440558055332658691660");
}

TEST(VerificationFingerprint, IsTheSameFromBothSides) {
    EXPECT_EQ(DisplayableFingerprint(kAlice, AliceKey(), kBob, BobKey()),
              DisplayableFingerprint(kBob, BobKey(), kAlice, AliceKey()));
}

TEST(VerificationFingerprint, ChangesWithEitherKeyOrUserId) {
    const std::string reference = DisplayableFingerprint(kAlice, AliceKey(), kBob, BobKey());
    mls::Bytes other = BobKey();
    other.back() ^= 0x01;
    EXPECT_NE(DisplayableFingerprint(kAlice, AliceKey(), kBob, other), reference);  // an impersonator's key
    EXPECT_NE(DisplayableFingerprint(kAlice, AliceKey(), kBob + 1, BobKey()), reference);
    EXPECT_EQ(reference.size(), 45u);
}
