#include "messages/channel_handle.hpp"

namespace svcpp::core {

std::optional<ChannelRecord> ChannelHandle::Lookup(const CacheRefs &refs, uint64_t channelId) {
    if (auto lobbies = refs.lobbies.lock()) {
        auto lobby = lobbies->Read(channelId, [channelId](const LobbyRecord &record) {
            ChannelRecord channel{channelId, ChannelType::Lobby, {}};
            channel.recipients.reserve(record.members.size());
            for (const auto &member : record.members) channel.recipients.push_back(member.id);
            return channel;
        });
        if (lobby) return lobby;
    }
    if (auto messages = refs.messages.lock()) return messages->GetChannel(channelId);
    return std::nullopt;
}

}  // namespace svcpp::core
