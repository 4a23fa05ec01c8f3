// Joining a group from a Welcome (RFC 9420 §12.4.3): find our EncryptedGroupSecrets by KeyPackageRef, decrypt the
// GroupSecrets with our init key, derive the welcome key, decrypt and check the GroupInfo (signature, ratchet tree
// against the tree hash, parent hashes, leaf signatures, confirmation tag), and derive the epoch's secrets — the
// exporter among them, from which DAVE keys media. DAVE sends the Welcome bare (opcode 30); an MLSMessage-wrapped one
// is accepted too. Pre-shared keys are refused (DAVE uses none). Also the committer's side: creating the Welcome.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/bytes.hpp"
#include "mls/key_package.hpp"
#include "mls/key_schedule.hpp"
#include "mls/ratchet_tree.hpp"

namespace svcpp::core::mls {

inline constexpr uint16_t kExtensionRatchetTree = 2;
inline constexpr uint16_t kExtensionExternalSenders = 5;

struct GroupInfo {
    GroupContext groupContext;
    std::vector<Extension> extensions;
    Bytes confirmationTag;
    uint32_t signer = 0;
    Bytes signature;

    Bytes EncodeTbs() const;
    Bytes Encode() const;
    static GroupInfo Decode(ByteView bytes);
    /** Sets `signature` = SignWithLabel(key, "GroupInfoTBS", EncodeTbs()). */
    void Sign(ByteView signaturePrivateKey);
};

struct JoinedGroup {
    GroupInfo groupInfo;
    Bytes encodedGroupContext;
    EpochSecrets secrets;
    std::optional<RatchetTree> tree;  // from the ratchet_tree extension, when present
    std::optional<uint32_t> ownLeaf;  // our leaf in that tree
    std::optional<Bytes> pathSecret;  // for the common ancestor, when the commit had a path
};

/**
 * Processes a Welcome for the KeyPackage we published. `signerPublicKey` is needed only when the GroupInfo carries no
 * ratchet tree (the signer's key is then taken from the tree). Throws Error naming the first check that failed.
 */
JoinedGroup ProcessWelcome(ByteView welcome, const KeyPackage &ownKeyPackage, ByteView initPrivateKey,
                           std::optional<Bytes> signerPublicKey = std::nullopt);

/** A member the commit adds: its KeyPackage and, after a commit with a path, its common ancestor's path secret. */
struct WelcomeRecipient {
    KeyPackage keyPackage;
    std::optional<Bytes> pathSecret;
};

/**
 * §12.4.3.1: a bare Welcome — `signedGroupInfo` encrypted with the welcome key of `joinerSecret` (no PSKs), and for
 * each recipient its GroupSecrets {joiner_secret, path_secret, no psks} encrypted with EncryptWithLabel("Welcome",
 * encrypted_group_info) to its KeyPackage's init key, indexed by KeyPackageRef.
 */
Bytes CreateWelcome(const GroupInfo &signedGroupInfo, ByteView joinerSecret,
                    const std::vector<WelcomeRecipient> &recipients);

}  // namespace svcpp::core::mls
