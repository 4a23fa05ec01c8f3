#include "mls/key_package.hpp"

#include "mls/cipher_suite.hpp"

namespace svcpp::core::mls {
namespace {

void EncodeU16List(tls::Writer &w, const std::vector<uint16_t> &items) {
    w.Vector(items, [](tls::Writer &out, uint16_t v) { out.U16(v); });
}

std::vector<uint16_t> DecodeU16List(tls::Reader &r) {
    return r.Vector<uint16_t>([](tls::Reader &in) { return in.U16(); });
}

void EncodeCredential(tls::Writer &w, const Credential &c) {
    w.U16(c.type);
    if (c.type != kCredentialBasic) throw Error("only basic credentials are supported");
    w.Opaque(c.identity);
}

Credential DecodeCredential(tls::Reader &r) {
    Credential c;
    c.type = r.U16();
    if (c.type != kCredentialBasic) throw DecodeError("credential type " + std::to_string(c.type) + " is not basic");
    c.identity = r.Opaque();
    return c;
}

void EncodeCapabilities(tls::Writer &w, const Capabilities &c) {
    EncodeU16List(w, c.versions);
    EncodeU16List(w, c.cipherSuites);
    EncodeU16List(w, c.extensions);
    EncodeU16List(w, c.proposals);
    EncodeU16List(w, c.credentials);
}

Capabilities DecodeCapabilities(tls::Reader &r) {
    Capabilities c;
    c.versions = DecodeU16List(r);
    c.cipherSuites = DecodeU16List(r);
    c.extensions = DecodeU16List(r);
    c.proposals = DecodeU16List(r);
    c.credentials = DecodeU16List(r);
    return c;
}

// The LeafNode fields common to the node and its TBS (everything but the signature).
void EncodeLeafContent(tls::Writer &w, const LeafNode &n) {
    w.Opaque(n.encryptionKey);
    w.Opaque(n.signatureKey);
    EncodeCredential(w, n.credential);
    EncodeCapabilities(w, n.capabilities);
    w.U8(static_cast<uint8_t>(n.source));
    switch (n.source) {
        case LeafNodeSource::KeyPackage:
            w.U64(n.notBefore);
            w.U64(n.notAfter);
            break;
        case LeafNodeSource::Update: break;
        case LeafNodeSource::Commit: w.Opaque(n.parentHash); break;
    }
    EncodeExtensions(w, n.extensions);
}

}  // namespace

void EncodeExtensions(tls::Writer &w, const std::vector<Extension> &extensions) {
    w.Vector(extensions, [](tls::Writer &out, const Extension &e) {
        out.U16(e.type);
        out.Opaque(e.data);
    });
}

std::vector<Extension> DecodeExtensions(tls::Reader &r) {
    return r.Vector<Extension>([](tls::Reader &in) {
        Extension e;
        e.type = in.U16();
        e.data = in.Opaque();
        return e;
    });
}

Bytes LeafNode::EncodeTbs(ByteView groupId, uint32_t leafIndex) const {
    tls::Writer w;
    EncodeLeafContent(w, *this);
    if (source == LeafNodeSource::Update || source == LeafNodeSource::Commit) {
        w.Opaque(groupId);
        w.U32(leafIndex);
    }
    return w.Take();
}

void LeafNode::Encode(tls::Writer &w) const {
    EncodeLeafContent(w, *this);
    w.Opaque(signature);
}

LeafNode LeafNode::Decode(tls::Reader &r) {
    LeafNode n;
    n.encryptionKey = r.Opaque();
    n.signatureKey = r.Opaque();
    n.credential = DecodeCredential(r);
    n.capabilities = DecodeCapabilities(r);
    uint8_t source = r.U8();
    switch (source) {
        case 1:
            n.source = LeafNodeSource::KeyPackage;
            n.notBefore = r.U64();
            n.notAfter = r.U64();
            break;
        case 2: n.source = LeafNodeSource::Update; break;
        case 3:
            n.source = LeafNodeSource::Commit;
            n.parentHash = r.Opaque();
            break;
        default: throw DecodeError("leaf node source " + std::to_string(source) + " is invalid");
    }
    n.extensions = DecodeExtensions(r);
    n.signature = r.Opaque();
    return n;
}

void LeafNode::Sign(ByteView signaturePrivateKey, ByteView groupId, uint32_t leafIndex) {
    signature = SignWithLabel(signaturePrivateKey, "LeafNodeTBS", EncodeTbs(groupId, leafIndex));
}

bool LeafNode::VerifySignature(ByteView groupId, uint32_t leafIndex) const {
    return VerifyWithLabel(signatureKey, "LeafNodeTBS", EncodeTbs(groupId, leafIndex), signature);
}

Bytes KeyPackage::EncodeTbs() const {
    tls::Writer w;
    w.U16(version);
    w.U16(cipherSuite);
    w.Opaque(initKey);
    leafNode.Encode(w);
    EncodeExtensions(w, extensions);
    return w.Take();
}

Bytes KeyPackage::Encode() const {
    tls::Writer w;
    w.Raw(EncodeTbs());
    w.Opaque(signature);
    return w.Take();
}

KeyPackage KeyPackage::Decode(ByteView bytes) {
    tls::Reader r(bytes);
    KeyPackage kp = Read(r);
    r.ExpectEnd();
    return kp;
}

KeyPackage KeyPackage::Read(tls::Reader &r) {
    KeyPackage kp;
    kp.version = r.U16();
    kp.cipherSuite = r.U16();
    kp.initKey = r.Opaque();
    kp.leafNode = LeafNode::Decode(r);
    kp.extensions = DecodeExtensions(r);
    kp.signature = r.Opaque();
    return kp;
}

Bytes KeyPackage::Ref() const { return RefHash(ToBytes("MLS 1.0 KeyPackage Reference"), Encode()); }

void KeyPackage::Validate() const {
    if (version != kProtocolVersionMls10) throw Error("key package: protocol version is not mls10");
    if (cipherSuite != kCipherSuite) throw Error("key package: cipher suite is not 2");
    if (leafNode.source != LeafNodeSource::KeyPackage) throw Error("key package: leaf node source is not key_package");
    if (initKey == leafNode.encryptionKey) throw Error("key package: init key equals the encryption key");
    if (initKey.size() != primitives::kPublicKeySize || leafNode.encryptionKey.size() != primitives::kPublicKeySize) {
        throw Error("key package: HPKE keys must be 65-byte P-256 points");
    }
    if (!leafNode.VerifySignature()) throw Error("key package: leaf node signature does not verify");
    if (!VerifyWithLabel(leafNode.signatureKey, "KeyPackageTBS", EncodeTbs(), signature)) {
        throw Error("key package: signature does not verify");
    }
}

Bytes DaveIdentity(uint64_t userId) {
    tls::Writer w;
    w.U64(userId);
    return w.Take();
}

KeyPackageBundle CreateDaveKeyPackage(uint64_t userId, const primitives::KeyPair &signatureKey) {
    primitives::KeyPair init = primitives::GenerateP256();
    primitives::KeyPair encryption = primitives::GenerateP256();
    KeyPackage kp;
    kp.initKey = init.publicKey;
    LeafNode &leaf = kp.leafNode;
    leaf.encryptionKey = encryption.publicKey;
    leaf.signatureKey = signatureKey.publicKey;
    leaf.credential = Credential{kCredentialBasic, DaveIdentity(userId)};
    leaf.capabilities = Capabilities{{kProtocolVersionMls10}, {kCipherSuite}, {}, {}, {kCredentialBasic}};
    leaf.source = LeafNodeSource::KeyPackage;
    leaf.notBefore = 0;
    leaf.notAfter = UINT64_MAX;
    leaf.Sign(signatureKey.privateKey);
    kp.signature = SignWithLabel(signatureKey.privateKey, "KeyPackageTBS", kp.EncodeTbs());
    return KeyPackageBundle{std::move(kp), init.privateKey, encryption.privateKey};
}

}  // namespace svcpp::core::mls
