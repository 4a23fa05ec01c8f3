// Key generations of one sender: the gap limit, the ratchet-age limit, and retention of superseded generations.
#include <gtest/gtest.h>

#include "fake_clock.hpp"
#include "voice/e2ee/limits.hpp"
#include "voice/e2ee/sender_key_manager.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;
using namespace std::chrono_literals;

namespace {
std::unique_ptr<KeyRatchet> Ratchet() { return std::make_unique<KeyRatchet>(mls::Bytes(16, 3)); }
// Long enough for kMaxFramesPerSecond to reach generation 300 (300 · 2^24 / 170 s ≈ 343 days).
constexpr auto kOldRatchet = std::chrono::hours(24 * 400);
}  // namespace

TEST(SenderKeyManager, AYoungRatchetRefusesFarGenerations) {
    test::FakeClock clock;
    SenderKeyManager keys(clock, Ratchet());
    EXPECT_NE(keys.CryptorFor(0), nullptr);
    EXPECT_EQ(keys.CryptorFor(1), nullptr);  // 2^24 frames cannot have been sent in 0 s
}

TEST(SenderKeyManager, GenerationsBeyondTheGapAreRefused) {
    test::FakeClock clock;
    SenderKeyManager keys(clock, Ratchet());
    clock.Advance(std::chrono::duration_cast<std::chrono::milliseconds>(kOldRatchet));
    EXPECT_EQ(keys.CryptorFor(kMaxGenerationGap + 1), nullptr);
    EXPECT_NE(keys.CryptorFor(kMaxGenerationGap), nullptr);
}

TEST(SenderKeyManager, SupersededGenerationsExpireAfterRetention) {
    test::FakeClock clock;
    SenderKeyManager keys(clock, Ratchet());
    clock.Advance(std::chrono::duration_cast<std::chrono::milliseconds>(kOldRatchet));
    ASSERT_NE(keys.CryptorFor(0), nullptr);
    keys.ReportSuccess(0, 1);
    ASSERT_NE(keys.CryptorFor(1), nullptr);
    keys.ReportSuccess(1, (1u << 24) | 1);
    clock.Advance(9s);
    EXPECT_NE(keys.CryptorFor(0), nullptr);  // late frames of generation 0 still decrypt
    clock.Advance(2s);
    EXPECT_EQ(keys.CryptorFor(0), nullptr);  // retired, and its key erased from the ratchet
    EXPECT_NE(keys.CryptorFor(1), nullptr);
}

TEST(SenderKeyManager, WireGenerationsUnwrapPastTheEightBitCounter) {
    test::FakeClock clock;
    SenderKeyManager keys(clock, Ratchet());
    EXPECT_EQ(keys.UnwrapGeneration(5), 5u);
    EXPECT_EQ(keys.UnwrapGeneration(255), 255u);
}
