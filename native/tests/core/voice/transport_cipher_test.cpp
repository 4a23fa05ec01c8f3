// TransportCipher: mode names (only the two rtpsize AEADs), published primitive vectors mapped onto the packet
// layout, independent re-computation of whole packets, round trips and tampering. libsodium, which the library does
// not link, is the independent implementation XChaCha20-Poly1305 and HChaCha20 are checked against.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <array>

#include "voice/media/hchacha20.hpp"
#include "voice/media/rtp.hpp"
#include "voice/media/transport_cipher.hpp"
#include "voice_test_bytes.hpp"

using namespace svcpp::core::voice;

namespace {

std::vector<uint8_t> Key(uint8_t start) {
    std::vector<uint8_t> key(32);
    for (int i = 0; i < 32; ++i) key[i] = static_cast<uint8_t>(start + i);
    return key;
}

std::vector<uint8_t> RtpHeaderBytes(uint16_t seq) {
    std::vector<uint8_t> header(kRtpFixedHeaderSize);
    RtpHeader h;
    h.sequence = seq;
    h.timestamp = 0x01020304;
    h.ssrc = 0xCAFEBABE;
    WriteRtpHeader(h, header);
    return header;
}

std::vector<uint8_t> Seal(TransportCipher &cipher, const std::vector<uint8_t> &header,
                          const std::vector<uint8_t> &plain, uint32_t counter) {
    std::vector<uint8_t> out(header.size() + plain.size() + kTransportOverhead);
    std::size_t n = cipher.Seal(header, plain, counter, out);
    EXPECT_EQ(n, out.size());
    return out;
}

// An AEAD encryption done directly with OpenSSL (independent of TransportCipher): ciphertext || 16-byte tag.
std::vector<uint8_t> OpenSslSeal(const EVP_CIPHER *aead, const uint8_t *key, const uint8_t *iv,
                                 const std::vector<uint8_t> &aad, const std::vector<uint8_t> &plain) {
    std::vector<uint8_t> out(plain.size() + 16);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0;
    bool ok = EVP_EncryptInit_ex(ctx, aead, nullptr, key, iv) == 1 &&
              EVP_EncryptUpdate(ctx, nullptr, &len, aad.data(), int(aad.size())) == 1 &&
              EVP_EncryptUpdate(ctx, out.data(), &len, plain.data(), int(plain.size())) == 1 &&
              EVP_EncryptFinal_ex(ctx, out.data() + len, &len) == 1 &&
              EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out.data() + plain.size()) == 1;
    EVP_CIPHER_CTX_free(ctx);
    EXPECT_TRUE(ok);
    return out;
}

/** The packet layout, assembled by hand: header || ciphertext+tag || the nonce's first 4 bytes (the counter). */
std::vector<uint8_t> Assemble(const std::vector<uint8_t> &header, const std::vector<uint8_t> &sealed,
                              const uint8_t *nonce) {
    std::vector<uint8_t> packet = header;
    packet.insert(packet.end(), sealed.begin(), sealed.end());
    packet.insert(packet.end(), nonce, nonce + 4);
    return packet;
}

const TransportMode kModes[] = {TransportMode::AeadAes256GcmRtpsize, TransportMode::AeadXChaCha20Poly1305Rtpsize};

}  // namespace

TEST(TransportCipher, AcceptsOnlyTheTwoRtpsizeModes) {
    EXPECT_EQ(ParseTransportMode("aead_aes256_gcm_rtpsize"), TransportMode::AeadAes256GcmRtpsize);
    EXPECT_EQ(ParseTransportMode("aead_xchacha20_poly1305_rtpsize"), TransportMode::AeadXChaCha20Poly1305Rtpsize);
    for (const char *retired : {"xsalsa20_poly1305", "xsalsa20_poly1305_suffix", "xsalsa20_poly1305_lite",
                                "xsalsa20_poly1305_lite_rtpsize", "aead_aes256_gcm", "", "AEAD_AES256_GCM_RTPSIZE"}) {
        EXPECT_FALSE(ParseTransportMode(retired)) << retired;
        EXPECT_EQ(TransportCipher::Create(retired, Key(0)), nullptr) << retired;
    }
    EXPECT_EQ(TransportModeName(TransportMode::AeadAes256GcmRtpsize), "aead_aes256_gcm_rtpsize");
    EXPECT_EQ(TransportModeName(TransportMode::AeadXChaCha20Poly1305Rtpsize), "aead_xchacha20_poly1305_rtpsize");
}

TEST(TransportCipher, RefusesAKeyThatIsNot32Bytes) {
    for (TransportMode mode : kModes) {
        EXPECT_EQ(TransportCipher::Create(mode, std::vector<uint8_t>(31)), nullptr);
        EXPECT_EQ(TransportCipher::Create(mode, std::vector<uint8_t>(33)), nullptr);
        EXPECT_NE(TransportCipher::Create(mode, std::vector<uint8_t>(32)), nullptr);
    }
}

// GCM specification (McGrew & Viega), test cases 13 and 14: K = 0^256, IV = 0^96, no AAD. Counter 0 gives exactly
// that IV (counter(4, BE) || 8 zero bytes), so an empty header reproduces the published ciphertext and tag.
TEST(TransportCipher, Aes256GcmMatchesThePublishedVectorsAtCounterZero) {
    auto cipher = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, std::vector<uint8_t>(32, 0));
    ASSERT_TRUE(cipher);
    EXPECT_EQ(ToHex(Seal(*cipher, {}, {}, 0)),
              "530f8afbc74536b9a963b4f1c4cb738b"
              "00000000");
    EXPECT_EQ(ToHex(Seal(*cipher, {}, std::vector<uint8_t>(16, 0), 0)),
              "cea7403d4d606b6e074ec5d3baf39d18"
              "d0d1c8a799996bf0265b98b5d48ab919"
              "00000000");
}

// A whole packet, recomputed independently with OpenSSL given the nonce the wire protocol defines.
TEST(TransportCipher, Aes256GcmPacketLayoutMatchesAnIndependentComputation) {
    auto key = Key(0x40);
    auto header = RtpHeaderBytes(7);
    std::vector<uint8_t> plain = {0xF8, 0xFF, 0xFE, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    const uint32_t counter = 0x01020304;
    auto cipher = TransportCipher::Create(TransportMode::AeadAes256GcmRtpsize, key);
    auto packet = Seal(*cipher, header, plain, counter);

    uint8_t iv[12] = {0x01, 0x02, 0x03, 0x04};
    EXPECT_EQ(ToHex(packet),
              ToHex(Assemble(header, OpenSslSeal(EVP_aes_256_gcm(), key.data(), iv, header, plain), iv)));
}

// HChaCha20's published vector (draft-irtf-cfrg-xchacha §2.2.1) anchors the construction; the packet is then
// recomputed as XChaCha20-Poly1305 is defined: ChaCha20-Poly1305-IETF under HChaCha20(key, nonce[0..16]) with nonce
// 0^4 || nonce[16..24] — using OpenSSL's ChaCha20-Poly1305, an implementation independent of libsodium.
TEST(TransportCipher, XChaChaPacketMatchesTheConstructionFromPublishedPrimitives) {
    ASSERT_GE(sodium_init(), 0);
    auto hkey = FromHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    auto hnonce = FromHex("000000090000004a0000000031415927");
    std::vector<uint8_t> subkey(32);
    ASSERT_EQ(crypto_core_hchacha20(subkey.data(), hnonce.data(), hkey.data(), nullptr), 0);
    ASSERT_EQ(ToHex(subkey), "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");

    auto key = Key(0x80);
    auto header = RtpHeaderBytes(65535);
    std::vector<uint8_t> plain(40);
    for (int i = 0; i < 40; ++i) plain[i] = uint8_t(i * 7);
    const uint32_t counter = 0xA1B2C3D4;
    auto cipher = TransportCipher::Create(TransportMode::AeadXChaCha20Poly1305Rtpsize, key);
    auto packet = Seal(*cipher, header, plain, counter);

    uint8_t nonce24[24] = {0xA1, 0xB2, 0xC3, 0xD4};
    ASSERT_EQ(crypto_core_hchacha20(subkey.data(), nonce24, key.data(), nullptr), 0);
    uint8_t nonce12[12] = {0};
    std::copy(nonce24 + 16, nonce24 + 24, nonce12 + 4);
    auto sealed = OpenSslSeal(EVP_chacha20_poly1305(), subkey.data(), nonce12, header, plain);
    EXPECT_EQ(ToHex(packet), ToHex(Assemble(header, sealed, nonce24)));
}

// draft-irtf-cfrg-xchacha-03 §2.2.1.
TEST(HChaCha20, MatchesThePublishedVector) {
    auto key = FromHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    auto nonce = FromHex("000000090000004a0000000031415927");
    HChaCha20 hchacha(std::span<const uint8_t, 32>(key.data(), 32));
    ASSERT_TRUE(hchacha.Valid());
    std::array<uint8_t, 32> out{};
    ASSERT_TRUE(hchacha.Derive(std::span<const uint8_t, 16>(nonce.data(), 16), out));
    EXPECT_EQ(ToHex(std::vector<uint8_t>(out.begin(), out.end())),
              "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
}

// Every word of the key and nonce matters, including the carries of the subtraction: compared with libsodium's
// crypto_core_hchacha20 over keys and nonces whose bytes run through the whole range, with one instance per key
// deriving many times (the key stays scheduled between derivations).
TEST(HChaCha20, MatchesLibsodiumForManyKeysAndNonces) {
    ASSERT_GE(sodium_init(), 0);
    for (int k = 0; k < 16; ++k) {
        std::vector<uint8_t> key(32);
        for (int i = 0; i < 32; ++i) key[i] = static_cast<uint8_t>(k * 37 + i * 101 + (k == 15 ? 0xFF : 0));
        HChaCha20 hchacha(std::span<const uint8_t, 32>(key.data(), 32));
        for (int n = 0; n < 16; ++n) {
            std::array<uint8_t, 16> nonce;
            for (int i = 0; i < 16; ++i) nonce[i] = static_cast<uint8_t>(n * 53 + i * 29 + k);
            std::array<uint8_t, 32> ours{}, theirs{};
            ASSERT_TRUE(hchacha.Derive(nonce, ours));
            ASSERT_EQ(crypto_core_hchacha20(theirs.data(), nonce.data(), key.data(), nullptr), 0);
            EXPECT_EQ(ours, theirs) << "key " << k << " nonce " << n;
        }
    }
}

// Whole packets against libsodium's XChaCha20-Poly1305 (the implementation this mode used before): sealed by us,
// equal to libsodium's; sealed by libsodium, opened by us. Counters at the edges, empty and block-crossing sizes.
TEST(TransportCipher, XChaChaMatchesLibsodiumAcrossCountersAndSizes) {
    ASSERT_GE(sodium_init(), 0);
    auto key = Key(0x33);
    auto cipher = TransportCipher::Create(TransportMode::AeadXChaCha20Poly1305Rtpsize, key);
    ASSERT_TRUE(cipher);
    for (uint32_t counter : {0u, 1u, 0xA1B2C3D4u, 0xFFFFFFFFu}) {
        for (std::size_t headerSize : {std::size_t{0}, std::size_t{12}, std::size_t{20}}) {
            for (std::size_t size : {0, 1, 63, 64, 65, 1000}) {
                std::vector<uint8_t> header(headerSize), plain(size);
                for (std::size_t i = 0; i < headerSize; ++i) header[i] = static_cast<uint8_t>(0x80 + i);
                for (std::size_t i = 0; i < size; ++i) plain[i] = static_cast<uint8_t>(i * 13 + counter);
                uint8_t nonce[24] = {uint8_t(counter >> 24), uint8_t(counter >> 16), uint8_t(counter >> 8),
                                     uint8_t(counter)};
                std::vector<uint8_t> sealed(size + 16);
                unsigned long long written = 0;
                ASSERT_EQ(
                    crypto_aead_xchacha20poly1305_ietf_encrypt(sealed.data(), &written, plain.data(), size,
                                                               header.data(), headerSize, nullptr, nonce, key.data()),
                    0);
                const auto theirs = Assemble(header, sealed, nonce);
                const std::string where = "counter " + std::to_string(counter) + ", header " +
                                          std::to_string(headerSize) + ", size " + std::to_string(size);
                EXPECT_EQ(ToHex(Seal(*cipher, header, plain, counter)), ToHex(theirs)) << where;
                std::vector<uint8_t> out(size);
                auto opened = cipher->Open(theirs, headerSize, out);
                ASSERT_TRUE(opened) << where;
                EXPECT_EQ(*opened, size) << where;
                EXPECT_EQ(out, plain) << where;
            }
        }
    }
}

TEST(TransportCipher, RoundTripsInBothModesWithTheCounterInTheTail) {
    for (TransportMode mode : kModes) {
        auto sender = TransportCipher::Create(mode, Key(1));
        auto receiver = TransportCipher::Create(mode, Key(1));  // a second instance: per-thread contexts
        auto header = RtpHeaderBytes(100);
        for (uint32_t counter : {0u, 1u, 0xFFFFFFFFu}) {
            std::vector<uint8_t> plain(200, uint8_t(counter));
            auto packet = Seal(*sender, header, plain, counter);
            EXPECT_EQ(TransportCipher::PacketCounter(packet), counter);
            std::vector<uint8_t> out(packet.size());
            auto size = receiver->Open(packet, header.size(), out);
            ASSERT_TRUE(size) << TransportModeName(mode);
            out.resize(*size);
            EXPECT_EQ(out, plain);
        }
    }
}

TEST(TransportCipher, AnyTamperedByteOrAWrongKeyFailsAuthentication) {
    for (TransportMode mode : kModes) {
        auto cipher = TransportCipher::Create(mode, Key(2));
        auto header = RtpHeaderBytes(5);
        auto packet = Seal(*cipher, header, std::vector<uint8_t>(50, 0x55), 9);
        std::vector<uint8_t> out(packet.size());
        // header (AAD), ciphertext, tag, counter: each region protected
        for (std::size_t at : {std::size_t{2}, header.size() + 3, packet.size() - 10, packet.size() - 1}) {
            auto bad = packet;
            bad[at] ^= 0x01;
            EXPECT_FALSE(cipher->Open(bad, header.size(), out)) << TransportModeName(mode) << " byte " << at;
        }
        auto other = TransportCipher::Create(mode, Key(3));
        EXPECT_FALSE(other->Open(packet, header.size(), out));
        // The header size is part of the authentication: a wrong split fails too.
        EXPECT_FALSE(cipher->Open(packet, header.size() - 4, out));
        EXPECT_TRUE(cipher->Open(packet, header.size(), out));
    }
}

TEST(TransportCipher, RefusesTruncatedPacketsAndSmallBuffers) {
    for (TransportMode mode : kModes) {
        auto cipher = TransportCipher::Create(mode, Key(4));
        auto header = RtpHeaderBytes(1);
        auto packet = Seal(*cipher, header, std::vector<uint8_t>(30, 1), 1);
        std::vector<uint8_t> out(packet.size());
        std::vector<uint8_t> tooShort(packet.begin(), packet.begin() + header.size() + kTransportOverhead - 1);
        EXPECT_FALSE(cipher->Open(tooShort, header.size(), out));
        std::vector<uint8_t> small(29);
        EXPECT_FALSE(cipher->Open(packet, header.size(), small));
        std::vector<uint8_t> sealSmall(header.size() + 30 + kTransportOverhead - 1);
        EXPECT_EQ(cipher->Seal(header, std::vector<uint8_t>(30, 1), 1, sealSmall), 0u);
        EXPECT_FALSE(TransportCipher::PacketCounter(std::vector<uint8_t>(3)));
    }
}
