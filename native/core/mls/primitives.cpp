#include "mls/primitives.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include <memory>

namespace svcpp::core::mls::primitives {
namespace {

template <class T, void (*Free)(T *)>
struct Deleter {
    void operator()(T *p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, Deleter<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using BnCtxPtr = std::unique_ptr<BN_CTX, Deleter<BN_CTX, BN_CTX_free>>;
using GroupPtr = std::unique_ptr<EC_GROUP, Deleter<EC_GROUP, EC_GROUP_free>>;
using PointPtr = std::unique_ptr<EC_POINT, Deleter<EC_POINT, EC_POINT_free>>;
using ParamBldPtr = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using ParamPtr = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;

void Check(int ok, const char *what) {
    if (ok != 1) throw Error(std::string("OpenSSL: ") + what + " failed");
}

// An empty span may carry a null pointer, which some OpenSSL calls reject even with length 0.
const uint8_t *Ptr(ByteView v) {
    static const uint8_t kEmpty = 0;
    return v.empty() ? &kEmpty : v.data();
}

GroupPtr P256Group() {
    GroupPtr group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1));
    if (!group) throw Error("OpenSSL: P-256 group unavailable");
    return group;
}

PkeyPtr FromData(OSSL_PARAM_BLD *bld, int selection) {
    ParamPtr params(OSSL_PARAM_BLD_to_param(bld));
    if (!params) throw Error("OpenSSL: key parameters");
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    if (!ctx) throw Error("OpenSSL: EC context");
    Check(EVP_PKEY_fromdata_init(ctx.get()), "EVP_PKEY_fromdata_init");
    EVP_PKEY *raw = nullptr;
    Check(EVP_PKEY_fromdata(ctx.get(), &raw, selection, params.get()), "EVP_PKEY_fromdata");
    return PkeyPtr(raw);
}

PkeyPtr PublicKey(ByteView publicKey) {
    // Uncompressed (65 bytes) is what MLS peers send; a compressed point (33 bytes) is accepted too, because some
    // implementations (ts-mls) produce compressed signature keys and DAVE peers accept them.
    bool uncompressed = publicKey.size() == kPublicKeySize && publicKey[0] == 0x04;
    bool compressed = publicKey.size() == 33 && (publicKey[0] == 0x02 || publicKey[0] == 0x03);
    if (!uncompressed && !compressed) throw Error("P-256 public key must be a SEC1 point (65 or 33 bytes)");
    ParamBldPtr bld(OSSL_PARAM_BLD_new());
    Check(OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0), "group param");
    Check(OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, publicKey.data(), publicKey.size()),
          "pub param");
    PkeyPtr key = FromData(bld.get(), EVP_PKEY_PUBLIC_KEY);
    // fromdata does not check that the point lies on the curve; an off-curve point would leak key bits in ECDH.
    PkeyCtxPtr check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
    if (!check || EVP_PKEY_public_check(check.get()) != 1) throw Error("P-256 public key is not a valid point");
    return key;
}

PkeyPtr PrivateKey(ByteView privateKey) {
    Bytes publicKey = P256PublicFromPrivate(privateKey);
    BnPtr priv(BN_bin2bn(privateKey.data(), static_cast<int>(privateKey.size()), nullptr));
    ParamBldPtr bld(OSSL_PARAM_BLD_new());
    Check(OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0), "group param");
    Check(OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, priv.get()), "priv param");
    Check(OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, publicKey.data(), publicKey.size()),
          "pub param");
    return FromData(bld.get(), EVP_PKEY_KEYPAIR);
}

}  // namespace

Bytes Sha256(ByteView data) {
    Bytes out(kHashSize);
    unsigned int size = 0;
    Check(EVP_Digest(Ptr(data), data.size(), out.data(), &size, EVP_sha256(), nullptr), "EVP_Digest");
    return out;
}

Bytes HmacSha256(ByteView key, ByteView data) {
    Bytes out(kHashSize);
    std::size_t size = 0;
    if (!EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, Ptr(key), key.size(), Ptr(data), data.size(),
                   out.data(), out.size(), &size) ||
        size != kHashSize) {
        throw Error("OpenSSL: HMAC failed");
    }
    return out;
}

Bytes HkdfExtract(ByteView salt, ByteView ikm) {
    // RFC 5869 §2.2: an absent salt is HashLen zeros, which HMAC treats exactly like an empty key.
    return HmacSha256(salt, ikm);
}

Bytes HkdfExpand(ByteView prk, ByteView info, std::size_t length) {
    if (length > 255 * kHashSize) throw Error("HKDF-Expand: length too large");
    Bytes out;
    Bytes block;
    for (uint8_t counter = 1; out.size() < length; ++counter) {
        Bytes input = block;
        input.insert(input.end(), info.begin(), info.end());
        input.push_back(counter);
        block = HmacSha256(prk, input);
        out.insert(out.end(), block.begin(), block.end());
    }
    out.resize(length);
    return out;
}

Bytes AeadSeal(ByteView key, ByteView nonce, ByteView aad, ByteView plaintext) {
    if (key.size() != kAeadKeySize || nonce.size() != kAeadNonceSize) throw Error("AES-128-GCM: bad key or nonce size");
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    Check(EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, key.data(), nonce.data()), "EncryptInit");
    int len = 0;
    if (!aad.empty())
        Check(EVP_EncryptUpdate(ctx.get(), nullptr, &len, aad.data(), static_cast<int>(aad.size())), "aad");
    Bytes out(plaintext.size() + kAeadTagSize);
    if (!plaintext.empty()) {
        Check(EVP_EncryptUpdate(ctx.get(), out.data(), &len, plaintext.data(), static_cast<int>(plaintext.size())),
              "EncryptUpdate");
    }
    Check(EVP_EncryptFinal_ex(ctx.get(), out.data() + plaintext.size(), &len), "EncryptFinal");
    Check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kAeadTagSize, out.data() + plaintext.size()), "get tag");
    return out;
}

Bytes AeadOpen(ByteView key, ByteView nonce, ByteView aad, ByteView ciphertext) {
    if (key.size() != kAeadKeySize || nonce.size() != kAeadNonceSize) throw Error("AES-128-GCM: bad key or nonce size");
    if (ciphertext.size() < kAeadTagSize) throw Error("AES-128-GCM: ciphertext shorter than the tag");
    std::size_t bodySize = ciphertext.size() - kAeadTagSize;
    CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
    Check(EVP_DecryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, key.data(), nonce.data()), "DecryptInit");
    int len = 0;
    if (!aad.empty())
        Check(EVP_DecryptUpdate(ctx.get(), nullptr, &len, aad.data(), static_cast<int>(aad.size())), "aad");
    Bytes out(bodySize);
    if (bodySize) {
        Check(EVP_DecryptUpdate(ctx.get(), out.data(), &len, ciphertext.data(), static_cast<int>(bodySize)),
              "DecryptUpdate");
    }
    Bytes tag(ciphertext.begin() + static_cast<std::ptrdiff_t>(bodySize), ciphertext.end());
    Check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kAeadTagSize, tag.data()), "set tag");
    uint8_t final[16];
    if (EVP_DecryptFinal_ex(ctx.get(), final, &len) != 1) throw Error("AES-128-GCM: authentication failed");
    return out;
}

bool P256ScalarIsValid(ByteView privateKey) {
    if (privateKey.size() != kPrivateKeySize) return false;
    GroupPtr group = P256Group();
    BnPtr scalar(BN_bin2bn(privateKey.data(), static_cast<int>(privateKey.size()), nullptr));
    const BIGNUM *order = EC_GROUP_get0_order(group.get());
    return scalar && !BN_is_zero(scalar.get()) && BN_cmp(scalar.get(), order) < 0;
}

Bytes P256PublicFromPrivate(ByteView privateKey) {
    if (!P256ScalarIsValid(privateKey)) throw Error("P-256 private key is not a valid scalar");
    GroupPtr group = P256Group();
    BnCtxPtr bnCtx(BN_CTX_new());
    BnPtr scalar(BN_bin2bn(privateKey.data(), static_cast<int>(privateKey.size()), nullptr));
    PointPtr point(EC_POINT_new(group.get()));
    Check(EC_POINT_mul(group.get(), point.get(), scalar.get(), nullptr, nullptr, bnCtx.get()), "EC_POINT_mul");
    Bytes out(kPublicKeySize);
    if (EC_POINT_point2oct(group.get(), point.get(), POINT_CONVERSION_UNCOMPRESSED, out.data(), out.size(),
                           bnCtx.get()) != kPublicKeySize) {
        throw Error("OpenSSL: point encoding failed");
    }
    return out;
}

KeyPair GenerateP256() {
    // A random scalar below the order (rejection sampling; the first draw almost always succeeds).
    for (;;) {
        Bytes scalar = RandomBytes(kPrivateKeySize);
        if (P256ScalarIsValid(scalar)) return KeyPair{scalar, P256PublicFromPrivate(scalar)};
    }
}

Bytes P256Dh(ByteView privateKey, ByteView peerPublicKey) {
    PkeyPtr own = PrivateKey(privateKey);
    PkeyPtr peer = PublicKey(peerPublicKey);
    PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, own.get(), nullptr));
    if (!ctx) throw Error("OpenSSL: derive context");
    Check(EVP_PKEY_derive_init(ctx.get()), "derive_init");
    Check(EVP_PKEY_derive_set_peer(ctx.get(), peer.get()), "derive_set_peer");
    std::size_t size = 0;
    Check(EVP_PKEY_derive(ctx.get(), nullptr, &size), "derive size");
    Bytes out(size);
    Check(EVP_PKEY_derive(ctx.get(), out.data(), &size), "derive");
    out.resize(size);
    return out;
}

Bytes EcdsaSign(ByteView privateKey, ByteView message) {
    PkeyPtr key = PrivateKey(privateKey);
    MdCtxPtr ctx(EVP_MD_CTX_new());
    Check(EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()), "DigestSignInit");
    std::size_t size = 0;
    Check(EVP_DigestSign(ctx.get(), nullptr, &size, Ptr(message), message.size()), "DigestSign size");
    Bytes out(size);
    Check(EVP_DigestSign(ctx.get(), out.data(), &size, Ptr(message), message.size()), "DigestSign");
    out.resize(size);
    return out;
}

bool EcdsaVerify(ByteView publicKey, ByteView message, ByteView signature) {
    try {
        PkeyPtr key = PublicKey(publicKey);
        MdCtxPtr ctx(EVP_MD_CTX_new());
        if (EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1) return false;
        return EVP_DigestVerify(ctx.get(), Ptr(signature), signature.size(), Ptr(message), message.size()) == 1;
    } catch (const Error &) {
        return false;
    }
}

Bytes RandomBytes(std::size_t size) {
    Bytes out(size);
    if (size) Check(RAND_bytes(out.data(), static_cast<int>(size)), "RAND_bytes");
    return out;
}

}  // namespace svcpp::core::mls::primitives
