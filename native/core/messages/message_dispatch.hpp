// The message half of the gateway: MESSAGE_* (direct messages, PROTOCOL.md §10.4) and LOBBY_MESSAGE_*
// (§10.5) applied to the message cache (authors into the user cache), answered with the events to post.
// Also the JSON mapping the HTTP answers share (sent, edited and fetched messages). No I/O.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "messages/message_cache.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::messages {

struct MessageEvent {
    enum class Kind { Created, Updated, Deleted };
    Kind kind;
    uint64_t messageId = 0;
    uint64_t channelId = 0;  // Deleted only

    bool operator==(const MessageEvent &) const = default;
};

/** A DM message object → record (id 0 when it has no valid id). */
MessageRecord ParseDirectMessage(const nlohmann::json &message);
/** A lobby message object → record (id 0 when it has no valid id). */
MessageRecord ParseLobbyMessage(const nlohmann::json &message);

/**
 * Caches a message object (a DM when it has `recipient_id` and no `lobby_id`, else a lobby message): its author
 * goes into the user cache, a persistent DM's channel into the channel table. Returns the entry (nullptr when
 * the object has no valid id).
 */
std::shared_ptr<const MessageCache::Entry> CacheMessage(MessageCache &messages, UserCache &users, uint64_t selfId,
                                                        const nlohmann::json &message);

/** One MESSAGE_* / LOBBY_MESSAGE_* dispatch (other types: nothing). */
std::vector<MessageEvent> ApplyDispatch(MessageCache &messages, UserCache &users, uint64_t selfId,
                                        std::string_view type, const nlohmann::json &data);

}  // namespace svcpp::core::messages
