#include "voice/e2ee/verification_fingerprint.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>

#include "voice/e2ee/dave_session.hpp"

namespace svcpp::core::voice::e2ee {

namespace {

constexpr std::array<uint8_t, 16> kSalt = {0x24, 0xca, 0xb1, 0x7a, 0x7a, 0xf8, 0xec, 0x2b,
                                           0x82, 0xb4, 0x12, 0xb9, 0x2d, 0xab, 0x19, 0x2e};
constexpr uint64_t kScryptN = 16384, kScryptR = 8, kScryptP = 2;
constexpr std::size_t kFingerprintSize = 64;
// N * r * 128 bytes of scrypt's working memory, plus headroom; OpenSSL's default cap (32 MiB) is enough, but say so.
constexpr uint64_t kScryptMaxMemory = 64ull * 1024 * 1024;

mls::Bytes UserBuffer(uint64_t userId, mls::ByteView signatureKey) {
    mls::Bytes buffer = {0x00, 0x00};  // fingerprint version 0
    buffer.insert(buffer.end(), signatureKey.begin(), signatureKey.end());
    for (int shift = 56; shift >= 0; shift -= 8) buffer.push_back(static_cast<uint8_t>(userId >> shift));
    return buffer;
}

}  // namespace

mls::Bytes PairwiseFingerprint(uint64_t localUserId, mls::ByteView localSignatureKey, uint64_t remoteUserId,
                               mls::ByteView remoteSignatureKey) {
    mls::Bytes a = UserBuffer(localUserId, localSignatureKey);
    mls::Bytes b = UserBuffer(remoteUserId, remoteSignatureKey);
    if (std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end())) std::swap(a, b);  // unsigned bytewise
    mls::Bytes passphrase = mls::Concat(a, b);
    mls::Bytes out(kFingerprintSize);
    if (EVP_PBE_scrypt(reinterpret_cast<const char *>(passphrase.data()), passphrase.size(), kSalt.data(), kSalt.size(),
                       kScryptN, kScryptR, kScryptP, kScryptMaxMemory, out.data(), out.size()) != 1) {
        throw mls::Error("verification fingerprint: scrypt failed");
    }
    return out;
}

std::string DisplayableFingerprint(uint64_t localUserId, mls::ByteView localSignatureKey, uint64_t remoteUserId,
                                   mls::ByteView remoteSignatureKey) {
    return DisplayableCode(PairwiseFingerprint(localUserId, localSignatureKey, remoteUserId, remoteSignatureKey), 45,
                           5);
}

}  // namespace svcpp::core::voice::e2ee
