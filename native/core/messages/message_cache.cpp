#include "messages/message_cache.hpp"

namespace svcpp::core {

std::shared_ptr<const MessageCache::Entry> MessageCache::Put(MessageRecord message) {
    std::lock_guard lock(mutex_);
    const uint64_t id = message.id;
    auto found = messages_.find(id);
    if (found != messages_.end()) {
        std::shared_ptr<Entry> entry = found->second;
        if (entry->record.channelId != message.channelId) {  // never expected; keep the index consistent anyway
            byChannel_[entry->record.channelId].erase(id);
            byChannel_[message.channelId].insert(id);
        }
        entry->record = std::move(message);
        return entry;
    }
    auto entry = std::make_shared<Entry>(Entry{std::move(message)});
    auto &ids = byChannel_[entry->record.channelId];
    messages_.emplace(id, entry);
    ids.insert(id);
    while (ids.size() > kPerChannel) {
        messages_.erase(*ids.begin());
        ids.erase(ids.begin());
    }
    return entry;
}

std::optional<uint64_t> MessageCache::Remove(uint64_t messageId) {
    std::lock_guard lock(mutex_);
    auto found = messages_.find(messageId);
    if (found == messages_.end()) return std::nullopt;
    const uint64_t channelId = found->second->record.channelId;
    byChannel_[channelId].erase(messageId);
    messages_.erase(found);
    return channelId;
}

std::shared_ptr<const MessageCache::Entry> MessageCache::Find(uint64_t messageId) const {
    std::lock_guard lock(mutex_);
    auto found = messages_.find(messageId);
    return found == messages_.end() ? nullptr : found->second;
}

MessageRecord MessageCache::Read(const Entry &entry) const {
    std::lock_guard lock(mutex_);
    return entry.record;
}

std::vector<std::shared_ptr<const MessageCache::Entry>> MessageCache::Recent(uint64_t channelId, size_t limit) const {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<const Entry>> out;
    auto ids = byChannel_.find(channelId);
    if (ids == byChannel_.end()) return out;
    for (auto it = ids->second.rbegin(); it != ids->second.rend() && out.size() < limit; ++it)
        out.push_back(messages_.at(*it));
    return out;
}

void MessageCache::PutChannel(ChannelRecord channel) {
    std::lock_guard lock(mutex_);
    const uint64_t id = channel.id;
    channels_.insert_or_assign(id, std::move(channel));
}

std::optional<ChannelRecord> MessageCache::GetChannel(uint64_t channelId) const {
    std::lock_guard lock(mutex_);
    auto found = channels_.find(channelId);
    if (found == channels_.end()) return std::nullopt;
    return found->second;
}

uint64_t MessageCache::DmChannelWith(uint64_t userId) const {
    std::lock_guard lock(mutex_);
    for (const auto &[id, channel] : channels_)
        if (channel.type == ChannelType::Dm && channel.recipients == std::vector<uint64_t>{userId}) return id;
    return userId;
}

void MessageCache::Clear() {
    std::lock_guard lock(mutex_);
    messages_.clear();
    byChannel_.clear();
    channels_.clear();
}

}  // namespace svcpp::core
