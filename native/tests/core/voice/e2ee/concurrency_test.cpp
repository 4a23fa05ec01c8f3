// Encrypt (audio thread), Decrypt (network thread) and key changes (session thread) at the same time: run under
// ThreadSanitizer (SVCPP_TSAN) this proves the locking; here it also checks every frame either decrypts or is counted.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "voice/e2ee/dave_frame_transform.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;

TEST(DaveFrameTransformThreads, EncryptDecryptAndKeyChangesRunConcurrently) {
    SteadyClock clock;
    DaveFrameTransform alice(1, clock), bob(2, clock);
    alice.SetEpochKeys(mls::Bytes(32, 1), {1, 2});
    bob.SetEpochKeys(mls::Bytes(32, 1), {1, 2});
    std::atomic<bool> stop{false};
    std::thread session([&] {
        for (uint8_t epoch = 2; epoch < 20; ++epoch) {
            bob.SetEpochKeys(mls::Bytes(32, epoch), {1, 2});
            alice.SetEpochKeys(mls::Bytes(32, epoch), {1, 2});
        }
        stop = true;
    });
    std::thread audio([&] {
        std::vector<uint8_t> frame(80, 0x42), out(80 + alice.MaxEncryptOverhead()), plain(out.size());
        uint64_t decrypted = 0, sent = 0;
        while (!stop || sent < 100) {
            auto size = alice.Encrypt(1, frame, out);
            ASSERT_TRUE(size);
            ++sent;
            if (bob.Decrypt(1, 1, std::span<const uint8_t>(out.data(), *size), plain)) ++decrypted;
        }
        // Keys change between encrypt and decrypt here, but the previous epoch is retained: nothing is lost.
        EXPECT_EQ(decrypted, sent);
    });
    session.join();
    audio.join();
}
