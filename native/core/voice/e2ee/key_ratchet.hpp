// A sender's media key ratchet: base = MLS-Exporter("Discord Secure Frames v0", sender user id as u64 little-endian,
// 16), then the RFC 9420 §9.1 hash ratchet over it; generation g's key is the ratchet's key for g.
#pragma once
#include <cstdint>

#include "mls/bytes.hpp"
#include "mls/hash_ratchet.hpp"

namespace svcpp::core::voice::e2ee {

/** The exporter label DAVE protocol version 1 derives sender keys with. */
inline constexpr const char *kSenderKeyExporterLabel = "Discord Secure Frames v0";

/** The base secret of `userId`'s ratchet in the epoch whose exporter_secret is given. */
mls::Bytes SenderBaseSecret(mls::ByteView exporterSecret, uint64_t userId);

class KeyRatchet {
  public:
    explicit KeyRatchet(mls::Bytes baseSecret) : ratchet_(std::move(baseSecret)) {}
    /** The 16-byte key of `generation`; throws mls::Error once the generation was erased. */
    mls::Bytes Key(uint32_t generation) { return ratchet_.Get(generation).key; }
    void Erase(uint32_t generation) { ratchet_.Erase(generation); }

  private:
    mls::HashRatchet ratchet_;
};

}  // namespace svcpp::core::voice::e2ee
