// Parsing of the DAVE protocol frame footer: every inconsistency is rejected; unencrypted ranges decrypt.
#include <gtest/gtest.h>

#include <vector>

#include "fake_clock.hpp"
#include "voice/e2ee/aes_gcm_cryptor.hpp"
#include "voice/e2ee/frame_decryptor.hpp"
#include "voice/e2ee/frame_format.hpp"
#include "voice/e2ee/leb128.hpp"

using namespace svcpp::core::voice::e2ee;
namespace mls = svcpp::core::mls;
using Frame = std::vector<uint8_t>;

namespace {
// body ‖ 8-byte tag ‖ footer varints ‖ size ‖ FA FA
Frame WithFooter(Frame body, const std::vector<uint64_t> &varints) {
    Frame frame = std::move(body);
    std::size_t start = frame.size();
    frame.resize(frame.size() + kTagSize, 0xAA);
    for (uint64_t v : varints) {
        uint8_t buffer[10];
        std::size_t n = WriteLeb128(v, buffer);
        frame.insert(frame.end(), buffer, buffer + n);
    }
    frame.push_back(static_cast<uint8_t>(frame.size() - start + 1 + kMarkerSize));
    frame.push_back(0xFA);
    frame.push_back(0xFA);
    return frame;
}
}  // namespace

TEST(FrameFormat, ParsesNonceAndRanges) {
    auto parsed = ParseFrame(WithFooter(Frame(20, 1), {300, 2, 4, 10, 3}));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->nonce, 300u);
    EXPECT_EQ(parsed->body.size(), 20u);
    ASSERT_EQ(parsed->unencryptedRanges.size(), 2u);
    EXPECT_EQ(parsed->unencryptedRanges[1].offset, 10u);
    EXPECT_EQ(parsed->unencryptedRanges[1].size, 3u);
}

TEST(FrameFormat, RejectsInconsistentFooters) {
    EXPECT_FALSE(ParseFrame(Frame{0xFA, 0xFA}));  // nothing but the marker
    EXPECT_FALSE(ParseFrame(Frame{1, 2, 3}));     // no marker
    Frame tooBig = WithFooter(Frame(4, 1), {1});
    tooBig[tooBig.size() - 3] = 200;  // size beyond the frame
    EXPECT_FALSE(ParseFrame(tooBig));
    EXPECT_FALSE(ParseFrame(WithFooter(Frame(20, 1), {0x1'0000'0000ull})));  // nonce wider than 32 bits
    EXPECT_FALSE(ParseFrame(WithFooter(Frame(20, 1), {1, 15, 10})));         // range past the body
    EXPECT_FALSE(ParseFrame(WithFooter(Frame(20, 1), {1, 10, 2, 5, 2})));    // ranges not ascending
    EXPECT_FALSE(ParseFrame(WithFooter(Frame(20, 1), {1, 3})));              // offset without a size
    Frame truncatedNonce = WithFooter(Frame(20, 1), {1});
    truncatedNonce[28] = 0x81;  // continuation bit, then the size byte
    EXPECT_FALSE(ParseFrame(truncatedNonce));
}

TEST(FrameFormat, UnencryptedRangesAreAuthenticatedAndKeptInClear) {
    test::FakeClock clock;
    mls::Bytes base(16, 9);
    KeyRatchet sender(base);
    AesGcmCryptor cryptor(sender.Key(0));
    Frame plain = {10, 11, 12, 13, 14, 15, 16, 17};
    // Range [2, 5) in clear: AAD = {12,13,14}, ciphertext over {10,11,15,16,17}.
    Frame encryptedPart = {10, 11, 15, 16, 17}, aad = {12, 13, 14}, ciphertext(5);
    uint8_t tag[kTagSize];
    auto iv = MakeIv(1);
    ASSERT_TRUE(cryptor.Encrypt(iv, aad, encryptedPart, ciphertext, tag));
    Frame body = {ciphertext[0], ciphertext[1], 12, 13, 14, ciphertext[2], ciphertext[3], ciphertext[4]};
    Frame frame = body;
    frame.insert(frame.end(), tag, tag + kTagSize);
    frame.insert(frame.end(), {1, 2, 3, static_cast<uint8_t>(kTagSize + 3 + 1 + 2), 0xFA, 0xFA});

    FrameDecryptor decryptor(clock);
    decryptor.TransitionToKeyRatchet(std::make_unique<KeyRatchet>(base));
    Frame out(frame.size());
    auto result = decryptor.Decrypt(frame, out);
    ASSERT_TRUE(result.size);
    out.resize(*result.size);
    EXPECT_EQ(out, plain);

    Frame tampered = frame;
    tampered[3] ^= 1;  // a clear byte: covered by the tag as additional data
    FrameDecryptor fresh(clock);
    fresh.TransitionToKeyRatchet(std::make_unique<KeyRatchet>(base));
    EXPECT_FALSE(fresh.Decrypt(tampered, out).size);
}
