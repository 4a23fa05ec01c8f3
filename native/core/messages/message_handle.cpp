#include "messages/message_handle.hpp"

#include "messages/content_render.hpp"

namespace svcpp::core {

std::optional<MessageRecord> MessageHandle::Record() const {
    auto messages = refs_.messages.lock();
    if (!messages || !entry_) return std::nullopt;
    return messages->Read(*entry_);
}

std::optional<UserHandle> MessageHandle::UserOf(uint64_t userId) const {
    auto users = refs_.users.lock();
    if (!userId || !users || !users->Contains(userId)) return std::nullopt;
    return UserHandle(refs_.users, userId);
}

std::string MessageHandle::Content() const {
    auto record = Record();
    return record ? RenderedContent(*record) : std::string();
}

MessageHandle::Whole MessageHandle::ReadWhole() const {
    Whole whole;
    auto record = Record();
    if (!record) return whole;  // gone: every getter answers its default
    whole.record = std::move(*record);
    whole.content = RenderedContent(whole.record);
    whole.author = UserOf(whole.record.authorId);
    if (CachedLobby(whole.record)) whole.lobbyId = whole.record.lobbyId;
    return whole;
}

std::string MessageHandle::RenderedContent(const MessageRecord &record) const {
    auto users = refs_.users.lock();
    return messages::RenderContent(record.content, [&](uint64_t id) -> std::optional<std::string> {
        if (!users) return std::nullopt;
        // The display name alone, read under the cache's lock (Get would copy the whole record).
        return users->With(id, [](const UserRecord &user) { return DisplayNameOf(user); });
    });
}

std::optional<ChannelHandle> MessageHandle::Channel() const {
    auto record = Record();
    if (!record || !ChannelHandle::Lookup(refs_, record->channelId)) return std::nullopt;
    return ChannelHandle(refs_, record->channelId);
}

bool MessageHandle::CachedLobby(const MessageRecord &record) const {
    auto lobbies = refs_.lobbies.lock();
    return record.lobbyId && lobbies && lobbies->Contains(record.lobbyId);
}

std::optional<LobbyHandle> MessageHandle::Lobby() const {
    auto record = Record();
    if (!record || !CachedLobby(*record)) return std::nullopt;
    return LobbyHandle(refs_.lobbies, refs_.users, refs_.lobbyCalls, record->lobbyId);
}

std::optional<UserHandle> MessageHandle::Recipient() const {
    auto record = Record();
    if (!record || record->lobbyId) return std::nullopt;  // a lobby message's recipient is the lobby
    return UserOf(record->recipientId);
}

}  // namespace svcpp::core
