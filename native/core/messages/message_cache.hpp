// The client's cache of lobby and direct messages: the 25 most recent per channel (native/SEMANTICS.md "Social layer:
// lobbies, lobby chat, direct messages"), plus the DM channels those messages revealed. Written on the I/O thread, read
// from any thread.
//
// Handle validity after eviction: each message lives in a shared Entry. The cache drops its reference when
// it evicts (or the message is deleted); a MessageHandle keeps its own reference, so it stays readable and
// keeps showing the last state the cache gave it. Edits reach every handle of a message that is still cached
// (MESSAGE_UPDATE rewrites the entry in place). Entries are read and written under the cache's mutex.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "generated/enums.hpp"
#include "net/json_maps.hpp"

namespace svcpp::core {

struct MessageRecord {
    uint64_t id = 0;
    std::string content;  // raw, as sent
    uint64_t authorId = 0;
    uint64_t channelId = 0;  // DM channel as this user sees it, or the lobby id
    ChannelType channelType = ChannelType::Dm;
    uint64_t lobbyId = 0;      // lobby messages only
    uint64_t recipientId = 0;  // DMs: the user it was sent to; lobby messages: the lobby
    uint64_t sentMs = 0;
    uint64_t editedMs = 0;
    Properties metadata;
    Properties moderationMetadata;
    std::optional<uint64_t> applicationId;
    bool sentFromGame = false;
    std::optional<std::string> additionalName;

    bool operator==(const MessageRecord &) const = default;
};

/** A DM channel known from its messages (lobby channels are the lobbies themselves). */
struct ChannelRecord {
    uint64_t id = 0;
    ChannelType type = ChannelType::Dm;
    std::vector<uint64_t> recipients;  // the other participants

    bool operator==(const ChannelRecord &) const = default;
};

class MessageCache {
  public:
    static constexpr size_t kPerChannel = 25;

    struct Entry {
        MessageRecord record;  // guarded by the owning cache's mutex
    };

    /**
     * Inserts a message or rewrites the cached one in place; the channel then keeps its kPerChannel newest
     * messages (ids are time-ordered snowflakes). Returns the message's entry, still valid when this insert
     * evicted it at once (a fetched message older than the cached ones).
     */
    std::shared_ptr<const Entry> Put(MessageRecord message);
    /** Drops a cached message; returns its channel id, nullopt when it was not cached. */
    std::optional<uint64_t> Remove(uint64_t messageId);
    std::shared_ptr<const Entry> Find(uint64_t messageId) const;
    /** A consistent copy of an entry's message. */
    MessageRecord Read(const Entry &entry) const;
    /** Up to `limit` cached messages of a channel, newest first. */
    std::vector<std::shared_ptr<const Entry>> Recent(uint64_t channelId, size_t limit) const;

    void PutChannel(ChannelRecord channel);
    std::optional<ChannelRecord> GetChannel(uint64_t channelId) const;
    /** The channel of the DMs with a user: their persistent DM channel when known, else their id (ephemeral). */
    uint64_t DmChannelWith(uint64_t userId) const;

    void Clear();

  private:
    mutable std::mutex mutex_;
    std::map<uint64_t, std::shared_ptr<Entry>> messages_;
    std::map<uint64_t, std::set<uint64_t>> byChannel_;  // channel id → cached message ids
    std::map<uint64_t, ChannelRecord> channels_;
};

}  // namespace svcpp::core
