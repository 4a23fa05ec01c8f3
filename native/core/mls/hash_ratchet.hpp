// The per-sender hash ratchet of RFC 9420 §9.1: from a starting secret, generation g yields
//   key_g   = DeriveTreeSecret(secret_g, "key",   g, Nk)
//   nonce_g = DeriveTreeSecret(secret_g, "nonce", g, Nn)
//   secret_{g+1} = DeriveTreeSecret(secret_g, "secret", g, Nh)
// MLS uses it for the secret tree's handshake/application ratchets; DAVE uses it, seeded from the MLS exporter, for
// each sender's media keys. Keys of skipped generations are kept until Erase (out-of-order frames), and a consumed
// secret is overwritten, so an old generation cannot be recomputed once erased (forward secrecy).
#pragma once
#include <cstdint>
#include <map>

#include "mls/bytes.hpp"

namespace svcpp::core::mls {

class HashRatchet {
  public:
    struct KeyAndNonce {
        Bytes key;
        Bytes nonce;
    };

    explicit HashRatchet(Bytes secret) : nextSecret_(std::move(secret)) {}

    /** Key and nonce of `generation`; throws Error if it was erased or lies before the ratchet's position. */
    const KeyAndNonce &Get(uint32_t generation);
    /** Forgets a generation's key (retention ends). */
    void Erase(uint32_t generation) { cache_.erase(generation); }
    uint32_t NextGeneration() const { return nextGeneration_; }

  private:
    Bytes nextSecret_;
    uint32_t nextGeneration_ = 0;
    std::map<uint32_t, KeyAndNonce> cache_;
};

}  // namespace svcpp::core::mls
