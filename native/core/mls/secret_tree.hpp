// The secret tree (RFC 9420 §9): from encryption_secret at the root, each leaf gets a handshake and an application
// hash ratchet. DAVE carries only PublicMessage handshakes and no MLS application messages, so it never encrypts with
// these ratchets; the tree is implemented (and checked against the `secret-tree` vectors) because it is part of every
// epoch and a PrivateMessage-capable peer would need it. Also the sender-data key of §6.3.2.
#pragma once
#include <cstdint>

#include "mls/bytes.hpp"
#include "mls/hash_ratchet.hpp"

namespace svcpp::core::mls {

struct LeafRatchets {
    HashRatchet handshake;
    HashRatchet application;
};

/** The two ratchets of `leaf` in a tree over `leafCount` leaves (derived down from the root, §9). */
LeafRatchets DeriveLeafRatchets(ByteView encryptionSecret, uint32_t leafCount, uint32_t leaf);

struct SenderDataKey {
    Bytes key;
    Bytes nonce;
};
/** §6.3.2: key and nonce from sender_data_secret and the first Nh bytes of the ciphertext (all of it if shorter). */
SenderDataKey DeriveSenderDataKey(ByteView senderDataSecret, ByteView ciphertext);

}  // namespace svcpp::core::mls
