// KeyPackage and LeafNode (RFC 9420 §7.2, §10): creation of the KeyPackage a DAVE client sends (opcode 26, as a bare
// KeyPackage), decoding, and the validation a receiver applies (§10.1: version, suite, both signatures, distinct init
// and encryption keys). DAVE profile: basic credential whose identity is the user id as 8 big-endian bytes,
// capabilities {versions [mls10], suites [2], extensions [], proposals [], credentials [basic]}, lifetime 0…2^64-1,
// no extensions.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"

namespace svcpp::core::mls {

inline constexpr uint16_t kCredentialBasic = 1;

struct Extension {
    uint16_t type = 0;
    Bytes data;
    bool operator==(const Extension &) const = default;
};

struct Credential {
    uint16_t type = kCredentialBasic;
    Bytes identity;
    bool operator==(const Credential &) const = default;
};

struct Capabilities {
    std::vector<uint16_t> versions;
    std::vector<uint16_t> cipherSuites;
    std::vector<uint16_t> extensions;
    std::vector<uint16_t> proposals;
    std::vector<uint16_t> credentials;
    bool operator==(const Capabilities &) const = default;
};

enum class LeafNodeSource : uint8_t { KeyPackage = 1, Update = 2, Commit = 3 };

struct LeafNode {
    Bytes encryptionKey;
    Bytes signatureKey;
    Credential credential;
    Capabilities capabilities;
    LeafNodeSource source = LeafNodeSource::KeyPackage;
    uint64_t notBefore = 0;  // lifetime (source KeyPackage)
    uint64_t notAfter = 0;
    Bytes parentHash;  // source Commit
    std::vector<Extension> extensions;
    Bytes signature;

    /** LeafNodeTBS (§7.2): group id and leaf index are bound for Update and Commit sources only. */
    Bytes EncodeTbs(ByteView groupId = {}, uint32_t leafIndex = 0) const;
    void Encode(tls::Writer &w) const;
    static LeafNode Decode(tls::Reader &r);
    void Sign(ByteView signaturePrivateKey, ByteView groupId = {}, uint32_t leafIndex = 0);
    bool VerifySignature(ByteView groupId = {}, uint32_t leafIndex = 0) const;
};

struct KeyPackage {
    uint16_t version = 1;
    uint16_t cipherSuite = 2;
    Bytes initKey;
    LeafNode leafNode;
    std::vector<Extension> extensions;
    Bytes signature;

    Bytes EncodeTbs() const;
    Bytes Encode() const;
    /** Decodes exactly one KeyPackage; throws DecodeError on malformed or trailing bytes. */
    static KeyPackage Decode(ByteView bytes);
    /** Reads one KeyPackage from a larger structure (an Add proposal, a Welcome). */
    static KeyPackage Read(tls::Reader &r);
    /** KeyPackageRef = RefHash("MLS 1.0 KeyPackage Reference", KeyPackage). */
    Bytes Ref() const;
    /** §10.1 validation; throws Error naming the first rule broken. */
    void Validate() const;
};

/** A fresh KeyPackage and the private keys it commits to. */
struct KeyPackageBundle {
    KeyPackage keyPackage;
    Bytes initPrivateKey;
    Bytes encryptionPrivateKey;
};

/** The DAVE client's KeyPackage for `userId`, signed with `signatureKey` (the session's identity key). */
KeyPackageBundle CreateDaveKeyPackage(uint64_t userId, const primitives::KeyPair &signatureKey);
/** The basic-credential identity DAVE uses: the user id, 8 bytes big-endian. */
Bytes DaveIdentity(uint64_t userId);

void EncodeExtensions(tls::Writer &w, const std::vector<Extension> &extensions);
std::vector<Extension> DecodeExtensions(tls::Reader &r);

}  // namespace svcpp::core::mls
