// KeyPackage creation (DAVE profile), encoding, decoding and validation.
#include <gtest/gtest.h>

#include "mls/key_package.hpp"
#include "vectors.hpp"

using namespace svcpp::core::mls;
using test::ToHex;

namespace {
KeyPackageBundle Fresh(uint64_t userId = 0x0102030405060708ull) {
    return CreateDaveKeyPackage(userId, primitives::GenerateP256());
}
}  // namespace

TEST(KeyPackage, DaveKeyPackageHasTheProfileAndValidates) {
    KeyPackageBundle bundle = Fresh();
    const KeyPackage &kp = bundle.keyPackage;
    EXPECT_NO_THROW(kp.Validate());
    EXPECT_EQ(ToHex(kp.leafNode.credential.identity), "0102030405060708");
    EXPECT_EQ(kp.leafNode.capabilities.cipherSuites, std::vector<uint16_t>{2});
    EXPECT_EQ(kp.leafNode.notAfter, UINT64_MAX);
    Bytes encoded = kp.Encode();
    // version 1, suite 2, init_key<65> (varint 0x4041), then the point: the prefix davey's key packages have too.
    EXPECT_EQ(ToHex(Bytes(encoded.begin(), encoded.begin() + 7)), "00010002404104");
    EXPECT_EQ(primitives::P256PublicFromPrivate(bundle.initPrivateKey), kp.initKey);
    EXPECT_EQ(primitives::P256PublicFromPrivate(bundle.encryptionPrivateKey), kp.leafNode.encryptionKey);
}

TEST(KeyPackage, DecodeRoundTripsAndKeepsTheRef) {
    KeyPackage kp = Fresh().keyPackage;
    KeyPackage decoded = KeyPackage::Decode(kp.Encode());
    EXPECT_EQ(decoded.Encode(), kp.Encode());
    EXPECT_EQ(decoded.Ref(), kp.Ref());
    EXPECT_EQ(decoded.Ref().size(), 32u);
    EXPECT_NO_THROW(decoded.Validate());
}

TEST(KeyPackage, TamperedFieldsFailValidation) {
    KeyPackage kp = Fresh().keyPackage;
    KeyPackage otherIdentity = kp;
    otherIdentity.leafNode.credential.identity[7] ^= 1;  // breaks the leaf node signature
    EXPECT_THROW(otherIdentity.Validate(), Error);
    KeyPackage otherInit = kp;
    otherInit.initKey = primitives::GenerateP256().publicKey;  // breaks the key package signature
    EXPECT_THROW(otherInit.Validate(), Error);
    KeyPackage sameKeys = kp;
    sameKeys.initKey = kp.leafNode.encryptionKey;
    EXPECT_THROW(sameKeys.Validate(), Error);
    KeyPackage otherSuite = kp;
    otherSuite.cipherSuite = 1;
    EXPECT_THROW(otherSuite.Validate(), Error);
}

TEST(KeyPackage, MalformedBytesAreDecodeErrors) {
    Bytes encoded = Fresh().keyPackage.Encode();
    Bytes truncated(encoded.begin(), encoded.end() - 1);
    EXPECT_THROW(KeyPackage::Decode(truncated), DecodeError);
    Bytes trailing = encoded;
    trailing.push_back(0);
    EXPECT_THROW(KeyPackage::Decode(trailing), DecodeError);
    Bytes badSource = encoded;
    // The leaf node source byte follows keys, credential and capabilities; find it by re-encoding up to it.
    KeyPackage kp = KeyPackage::Decode(encoded);
    tls::Writer prefix;
    prefix.U16(kp.version);
    prefix.U16(kp.cipherSuite);
    prefix.Opaque(kp.initKey);
    prefix.Opaque(kp.leafNode.encryptionKey);
    prefix.Opaque(kp.leafNode.signatureKey);
    prefix.U16(kp.leafNode.credential.type);
    prefix.Opaque(kp.leafNode.credential.identity);
    std::size_t capabilitiesSize =
        3 + 3 + 1 + 1 + 3;  // versions, suites (one u16 each), no extensions or proposals, credentials
    badSource[prefix.Bytes().size() + capabilitiesSize] = 9;
    EXPECT_THROW(KeyPackage::Decode(badSource), DecodeError);
    EXPECT_THROW(KeyPackage::Decode(Bytes{}), DecodeError);
}
