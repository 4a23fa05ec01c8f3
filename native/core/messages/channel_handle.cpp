#include "messages/channel_handle.hpp"

namespace svcpp::core {

std::optional<ChannelRecord> ChannelHandle::Lookup(const CacheRefs &refs, uint64_t channelId) {
    if (auto lobbies = refs.lobbies.lock()) {
        auto lobby = lobbies->Read(channelId, [channelId](const LobbyRecord &record) {
            return ChannelRecord{channelId, ChannelType::Lobby, record.MemberIds()};
        });
        if (lobby) return lobby;
    }
    if (auto messages = refs.messages.lock()) return messages->GetChannel(channelId);
    return std::nullopt;
}

}  // namespace svcpp::core
