#include "mls/welcome.hpp"

#include <algorithm>
#include <string>

#include "mls/cipher_suite.hpp"
#include "mls/primitives.hpp"
#include "mls/tls_codec.hpp"
#include "mls/tree_math.hpp"

namespace svcpp::core::mls {
namespace {

constexpr uint16_t kWireFormatWelcome = 3;

void EncodeGroupContext(tls::Writer &w, const GroupContext &c) { w.Raw(c.Encode()); }

GroupContext DecodeGroupContext(tls::Reader &r) {
    if (r.U16() != kProtocolVersionMls10) throw Error("group context: version is not mls10");
    if (r.U16() != kCipherSuite) throw Error("group context: cipher suite is not 2");
    GroupContext c;
    c.groupId = r.Opaque();
    c.epoch = r.U64();
    c.treeHash = r.Opaque();
    c.confirmedTranscriptHash = r.Opaque();
    c.extensions = r.Opaque();  // the Extension list's body, kept encoded
    return c;
}

struct EncryptedGroupSecrets {
    Bytes newMember;
    HpkeCiphertext secrets;
};

}  // namespace

Bytes GroupInfo::EncodeTbs() const {
    tls::Writer w;
    EncodeGroupContext(w, groupContext);
    EncodeExtensions(w, extensions);
    w.Opaque(confirmationTag);
    w.U32(signer);
    return w.Take();
}

Bytes GroupInfo::Encode() const {
    tls::Writer w;
    w.Raw(EncodeTbs());
    w.Opaque(signature);
    return w.Take();
}

void GroupInfo::Sign(ByteView signaturePrivateKey) {
    signature = SignWithLabel(signaturePrivateKey, "GroupInfoTBS", EncodeTbs());
}

Bytes CreateWelcome(const GroupInfo &signedGroupInfo, ByteView joinerSecret,
                    const std::vector<WelcomeRecipient> &recipients) {
    const Bytes pskSecret(primitives::kHashSize, 0);
    WelcomeKey welcomeKey = DeriveWelcomeKey(WelcomeSecret(joinerSecret, pskSecret));
    Bytes encryptedGroupInfo = primitives::AeadSeal(welcomeKey.key, welcomeKey.nonce, {}, signedGroupInfo.Encode());
    tls::Writer w;
    w.U16(kCipherSuite);
    w.Vector(recipients, [&](tls::Writer &out, const WelcomeRecipient &recipient) {
        tls::Writer groupSecrets;
        groupSecrets.Opaque(joinerSecret);
        groupSecrets.Optional(recipient.pathSecret, [](tls::Writer &ps, const Bytes &secret) { ps.Opaque(secret); });
        groupSecrets.Opaque({});  // psks: none
        HpkeCiphertext ct =
            EncryptWithLabel(recipient.keyPackage.initKey, "Welcome", encryptedGroupInfo, groupSecrets.Bytes());
        out.Opaque(recipient.keyPackage.Ref());
        out.Opaque(ct.kemOutput);
        out.Opaque(ct.ciphertext);
    });
    w.Opaque(encryptedGroupInfo);
    return w.Take();
}

GroupInfo GroupInfo::Decode(ByteView bytes) {
    tls::Reader r(bytes);
    GroupInfo g;
    g.groupContext = DecodeGroupContext(r);
    g.extensions = DecodeExtensions(r);
    g.confirmationTag = r.Opaque();
    g.signer = r.U32();
    g.signature = r.Opaque();
    r.ExpectEnd();
    return g;
}

JoinedGroup ProcessWelcome(ByteView welcome, const KeyPackage &ownKeyPackage, ByteView initPrivateKey,
                           std::optional<Bytes> signerPublicKey) {
    tls::Reader r(welcome);
    // MLSMessage(Welcome) starts with version 1 then wire format 3; a bare Welcome starts with its cipher suite (2).
    if (welcome.size() >= 4 && welcome[0] == 0 && welcome[1] == kProtocolVersionMls10) {
        r.U16();
        if (r.U16() != kWireFormatWelcome) throw Error("welcome: MLSMessage is not a Welcome");
    }
    if (r.U16() != kCipherSuite) throw Error("welcome: cipher suite is not 2");
    auto entries = r.Vector<EncryptedGroupSecrets>([](tls::Reader &in) {
        EncryptedGroupSecrets e;
        e.newMember = in.Opaque();
        e.secrets.kemOutput = in.Opaque();
        e.secrets.ciphertext = in.Opaque();
        return e;
    });
    Bytes encryptedGroupInfo = r.Opaque();
    r.ExpectEnd();

    Bytes ownRef = ownKeyPackage.Ref();
    auto entry = std::find_if(entries.begin(), entries.end(), [&](const auto &e) { return e.newMember == ownRef; });
    if (entry == entries.end()) throw Error("welcome: no group secrets for our key package");

    // GroupSecrets: joiner_secret, optional path_secret, psks.
    Bytes groupSecretsBytes = DecryptWithLabel(initPrivateKey, "Welcome", encryptedGroupInfo, entry->secrets);
    tls::Reader gs(groupSecretsBytes);
    JoinedGroup joined;
    Bytes joinerSecret = gs.Opaque();
    joined.pathSecret = gs.Optional<Bytes>([](tls::Reader &in) { return in.Opaque(); });
    tls::Reader psks = gs.Sub();
    gs.ExpectEnd();
    if (!psks.Empty()) throw Error("welcome: pre-shared keys are not supported");

    const Bytes pskSecret(primitives::kHashSize, 0);  // no PSKs: psk_secret is Nh zero bytes (§8.4)
    WelcomeKey welcomeKey = DeriveWelcomeKey(WelcomeSecret(joinerSecret, pskSecret));
    Bytes groupInfoBytes = primitives::AeadOpen(welcomeKey.key, welcomeKey.nonce, {}, encryptedGroupInfo);
    joined.groupInfo = GroupInfo::Decode(groupInfoBytes);
    const GroupInfo &info = joined.groupInfo;

    for (const Extension &e : info.extensions) {
        if (e.type != kExtensionRatchetTree) continue;
        RatchetTree tree = RatchetTree::Decode(e.data);
        if (tree.RootTreeHash() != info.groupContext.treeHash)
            throw Error("welcome: ratchet tree does not match the tree hash");
        if (!tree.VerifyParentHashes()) throw Error("welcome: ratchet tree parent hashes do not verify");
        if (!tree.VerifyLeafSignatures(info.groupContext.groupId))
            throw Error("welcome: a leaf signature does not verify");
        joined.tree = std::move(tree);
    }
    if (joined.tree) {
        uint32_t signerNode = tree_math::LeafToNode(info.signer);
        if (info.signer >= joined.tree->LeafCount() || joined.tree->IsBlank(signerNode)) {
            throw Error("welcome: the GroupInfo signer is not a member");
        }
        signerPublicKey = joined.tree->Node(signerNode)->leaf->signatureKey;
        tls::Writer ownLeaf;
        ownKeyPackage.leafNode.Encode(ownLeaf);
        for (uint32_t leaf = 0; leaf < joined.tree->LeafCount(); ++leaf) {
            const auto &node = joined.tree->Node(tree_math::LeafToNode(leaf));
            if (!node) continue;
            tls::Writer candidate;
            node->leaf->Encode(candidate);
            if (candidate.Bytes() == ownLeaf.Bytes()) joined.ownLeaf = leaf;
        }
        if (!joined.ownLeaf) throw Error("welcome: our leaf is not in the ratchet tree");
    }
    if (!signerPublicKey) throw Error("welcome: no ratchet tree and no signer key to verify the GroupInfo");
    if (!VerifyWithLabel(*signerPublicKey, "GroupInfoTBS", info.EncodeTbs(), info.signature)) {
        throw Error("welcome: GroupInfo signature does not verify");
    }

    joined.encodedGroupContext = info.groupContext.Encode();
    joined.secrets = DeriveEpochSecretsFromJoiner(joinerSecret, pskSecret, joined.encodedGroupContext);
    Bytes expectedTag =
        primitives::HmacSha256(joined.secrets.confirmationKey, info.groupContext.confirmedTranscriptHash);
    if (expectedTag != info.confirmationTag) throw Error("welcome: confirmation tag does not verify");
    return joined;
}

}  // namespace svcpp::core::mls
