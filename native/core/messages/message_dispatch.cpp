#include "messages/message_dispatch.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"

namespace svcpp::core::messages {

namespace {

void ReadCommon(const nlohmann::json &message, MessageRecord &r) {
    r.id = wire::Snowflake(message, "id");
    r.content = wire::String(message, "content");
    r.authorId = wire::Snowflake(wire::Member(message, "author"), "id");
    r.sentMs = wire::TimestampMs(message, "timestamp");
    r.editedMs = wire::TimestampMs(message, "edited_timestamp");
    r.metadata = wire::StringMap(message, "metadata");
    r.moderationMetadata = wire::StringMap(message, "moderation_metadata");
    if (const uint64_t app = wire::Snowflake(message, "application_id")) r.applicationId = app;
}

bool IsLobbyMessage(const nlohmann::json &message) { return wire::Snowflake(message, "lobby_id") != 0; }

}  // namespace

MessageRecord ParseDirectMessage(const nlohmann::json &message) {
    MessageRecord r;
    ReadCommon(message, r);
    r.channelId = wire::Snowflake(message, "channel_id");
    r.channelType = static_cast<ChannelType>(wire::Int(message, "channel_type", static_cast<int32_t>(ChannelType::Dm)));
    r.recipientId = wire::Snowflake(message, "recipient_id");
    r.sentFromGame = wire::Bool(message, "sent_from_game");
    return r;
}

MessageRecord ParseLobbyMessage(const nlohmann::json &message) {
    MessageRecord r;
    ReadCommon(message, r);
    r.lobbyId = wire::Snowflake(message, "lobby_id");
    r.channelId = wire::Snowflake(message, "channel_id");
    if (!r.channelId) r.channelId = r.lobbyId;
    r.channelType = ChannelType::Lobby;
    r.recipientId = r.lobbyId;
    // Lobby messages carry no sent_from_game: users can only post them through the SDK, bots through the API.
    const auto &sent = wire::Member(message, "sent_from_game");
    r.sentFromGame = sent.is_boolean() ? sent.get<bool>() : !wire::Bool(wire::Member(message, "author"), "bot");
    r.additionalName = wire::OptionalString(wire::Member(message, "lobby_member"), "additional_name");
    return r;
}

std::shared_ptr<const MessageCache::Entry> CacheMessage(MessageCache &messages, UserCache &users, uint64_t selfId,
                                                        const nlohmann::json &message) {
    const bool lobby = IsLobbyMessage(message);
    MessageRecord record = lobby ? ParseLobbyMessage(message) : ParseDirectMessage(message);
    if (!record.id || !record.channelId) return nullptr;
    UserRecord author = ParseUser(wire::Member(message, "author"));
    if (author.id) users.Upsert(author);
    if (!lobby && record.channelType == ChannelType::Dm) {
        const uint64_t other = record.authorId == selfId ? record.recipientId : record.authorId;
        messages.PutChannel(ChannelRecord{record.channelId, ChannelType::Dm, {other}});
    }
    return messages.Put(std::move(record));
}

std::vector<MessageEvent> ApplyDispatch(MessageCache &messages, UserCache &users, uint64_t selfId,
                                        std::string_view type, const nlohmann::json &data) {
    using Kind = MessageEvent::Kind;
    std::vector<MessageEvent> events;
    const bool create = type == "MESSAGE_CREATE" || type == "LOBBY_MESSAGE_CREATE";
    const bool update = type == "MESSAGE_UPDATE" || type == "LOBBY_MESSAGE_UPDATE";
    if (create || update) {
        if (auto entry = CacheMessage(messages, users, selfId, data))
            events.push_back({create ? Kind::Created : Kind::Updated, messages.Read(*entry).id});
    } else if (type == "MESSAGE_DELETE" || type == "LOBBY_MESSAGE_DELETE") {
        const uint64_t id = wire::Snowflake(data, "id");
        uint64_t channelId = wire::Snowflake(data, type == "MESSAGE_DELETE" ? "channel_id" : "lobby_id");
        if (!channelId) channelId = wire::Snowflake(data, "channel_id");
        if (!id) return events;
        messages.Remove(id);
        // Reported even when the message was not cached: the host may hold it from a fetch.
        events.push_back({Kind::Deleted, id, channelId});
    }
    return events;
}

}  // namespace svcpp::core::messages
