// ChannelHandle: the live handle of Svcpp_ChannelHandle — a persistent DM channel the message cache learned
// from its messages, or a lobby of the lobby cache (ephemeral DMs have no channel). Reads the current state
// on every call; defaults and IsValid() false once the channel is unknown or the client is gone.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "messages/cache_refs.hpp"

namespace svcpp::core {

class ChannelHandle {
  public:
    ChannelHandle() = default;
    ChannelHandle(CacheRefs refs, uint64_t channelId) : refs_(std::move(refs)), id_(channelId) {}

    /** The channel's current state from the caches (nullopt when unknown): a lobby first, then a DM channel. */
    static std::optional<ChannelRecord> Lookup(const CacheRefs &refs, uint64_t channelId);

    bool IsValid() const { return Lookup(refs_, id_).has_value(); }
    uint64_t Id() const { return IsValid() ? id_ : 0; }
    /** Empty: DMs and lobbies have no name. */
    std::string Name() const { return {}; }
    /** DMs: the other participant; lobbies: every member. */
    std::vector<uint64_t> Recipients() const { return Lookup(refs_, id_).value_or(ChannelRecord{}).recipients; }
    ChannelType Type() const { return Lookup(refs_, id_).value_or(ChannelRecord{}).type; }

  private:
    CacheRefs refs_;
    uint64_t id_ = 0;
};

}  // namespace svcpp::core
