// MessageHandle: the live handle of Svcpp_MessageHandle. It holds its message's cache entry (see
// message_cache.hpp: readable after eviction, edits visible while cached) and reads related objects
// (author, channel, lobby) from the caches on every call. After the client is dropped every getter returns
// the default and IsValid() is false.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "generated/values.hpp"
#include "lobbies/lobby_handle.hpp"
#include "messages/cache_refs.hpp"
#include "messages/channel_handle.hpp"
#include "users/user_handle.hpp"

namespace svcpp::core {

class MessageHandle {
  public:
    MessageHandle() = default;
    MessageHandle(CacheRefs refs, std::shared_ptr<const MessageCache::Entry> entry)
        : refs_(std::move(refs)), entry_(std::move(entry)) {}

    bool IsValid() const { return Record().has_value(); }
    uint64_t Id() const { return Get().id; }
    std::string Content() const;
    std::string RawContent() const { return Get().content; }
    uint64_t AuthorId() const { return Get().authorId; }
    std::optional<UserHandle> Author() const { return UserOf(Get().authorId); }
    uint64_t ChannelId() const { return Get().channelId; }
    std::optional<ChannelHandle> Channel() const;
    std::optional<LobbyHandle> Lobby() const;
    uint64_t RecipientId() const { return Get().recipientId; }
    std::optional<UserHandle> Recipient() const;
    uint64_t SentTimestamp() const { return Get().sentMs; }
    uint64_t EditedTimestamp() const { return Get().editedMs; }
    Properties Metadata() const { return Get().metadata; }
    Properties ModerationMetadata() const { return Get().moderationMetadata; }
    /** The platform's game messages are text only: always absent. */
    std::optional<core::AdditionalContent> AdditionalContent() const { return std::nullopt; }
    /** The platform sends no disclosures yet: always absent. */
    std::optional<DisclosureTypes> DisclosureType() const { return std::nullopt; }
    std::optional<uint64_t> ApplicationId() const { return Get().applicationId; }
    bool SentFromGame() const { return Get().sentFromGame; }
    std::optional<std::string> AdditionalName() const { return Get().additionalName; }

    /** What the getters answer, read with one copy of the record (each getter copies it again). */
    struct Whole {
        MessageRecord record;              // the default record once the message's client is gone
        std::string content;               // Content()
        std::optional<UserHandle> author;  // Author()
        std::optional<uint64_t> lobbyId;   // Lobby()'s id
    };
    /** For whole-object readers (the C snapshot of a message, capi/support/whole_snapshots.cpp). */
    Whole ReadWhole() const;

  private:
    std::optional<MessageRecord> Record() const;
    MessageRecord Get() const { return Record().value_or(MessageRecord{}); }
    std::optional<UserHandle> UserOf(uint64_t userId) const;
    /** Content() of a record already read: its mentions rendered with the users' display names. */
    std::string RenderedContent(const MessageRecord &record) const;
    /** Whether a record's message is a lobby message whose lobby is still cached (Lobby() answers a handle). */
    bool CachedLobby(const MessageRecord &record) const;

    CacheRefs refs_;
    std::shared_ptr<const MessageCache::Entry> entry_;
};

}  // namespace svcpp::core
