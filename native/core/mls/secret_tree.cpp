#include "mls/secret_tree.hpp"

#include <algorithm>

#include "mls/cipher_suite.hpp"
#include "mls/primitives.hpp"
#include "mls/tree_math.hpp"

namespace svcpp::core::mls {

LeafRatchets DeriveLeafRatchets(ByteView encryptionSecret, uint32_t leafCount, uint32_t leaf) {
    if (leaf >= leafCount) throw Error("secret tree: leaf outside the tree");
    const uint32_t target = tree_math::LeafToNode(leaf);
    uint32_t node = tree_math::Root(leafCount);
    Bytes secret(encryptionSecret.begin(), encryptionSecret.end());
    while (node != target) {
        bool goLeft = target < node;
        secret = ExpandWithLabel(secret, "tree", ToBytes(goLeft ? "left" : "right"), primitives::kHashSize);
        node = goLeft ? tree_math::Left(node) : tree_math::Right(node);
    }
    return LeafRatchets{HashRatchet(ExpandWithLabel(secret, "handshake", {}, primitives::kHashSize)),
                        HashRatchet(ExpandWithLabel(secret, "application", {}, primitives::kHashSize))};
}

SenderDataKey DeriveSenderDataKey(ByteView senderDataSecret, ByteView ciphertext) {
    ByteView sample = ciphertext.first(std::min(ciphertext.size(), primitives::kHashSize));
    return SenderDataKey{ExpandWithLabel(senderDataSecret, "key", sample, primitives::kAeadKeySize),
                         ExpandWithLabel(senderDataSecret, "nonce", sample, primitives::kAeadNonceSize)};
}

}  // namespace svcpp::core::mls
