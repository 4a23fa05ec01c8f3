#include "mls/hash_ratchet.hpp"

#include <string>

#include "mls/cipher_suite.hpp"
#include "mls/primitives.hpp"

namespace svcpp::core::mls {

const HashRatchet::KeyAndNonce &HashRatchet::Get(uint32_t generation) {
    if (auto it = cache_.find(generation); it != cache_.end()) return it->second;
    if (generation < nextGeneration_) {
        throw Error("hash ratchet: generation " + std::to_string(generation) + " is no longer available");
    }
    while (nextGeneration_ <= generation) {
        KeyAndNonce kn{DeriveTreeSecret(nextSecret_, "key", nextGeneration_, primitives::kAeadKeySize),
                       DeriveTreeSecret(nextSecret_, "nonce", nextGeneration_, primitives::kAeadNonceSize)};
        nextSecret_ = DeriveTreeSecret(nextSecret_, "secret", nextGeneration_, primitives::kHashSize);
        cache_.emplace(nextGeneration_, std::move(kn));
        if (nextGeneration_ == UINT32_MAX) break;
        ++nextGeneration_;
    }
    return cache_.at(generation);
}

}  // namespace svcpp::core::mls
