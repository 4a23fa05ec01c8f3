#include "messages/channel_handle.hpp"

namespace svcpp::core {

std::optional<ChannelRecord> ChannelHandle::Lookup(const CacheRefs &refs, uint64_t channelId) {
    if (auto lobbies = refs.lobbies.lock()) {
        if (auto lobby = lobbies->Get(channelId)) {
            ChannelRecord channel{channelId, ChannelType::Lobby, {}};
            for (const auto &member : lobby->members) channel.recipients.push_back(member.id);
            return channel;
        }
    }
    if (auto messages = refs.messages.lock()) return messages->GetChannel(channelId);
    return std::nullopt;
}

}  // namespace svcpp::core
