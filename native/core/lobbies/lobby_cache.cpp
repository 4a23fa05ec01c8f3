#include "lobbies/lobby_cache.hpp"

#include <algorithm>

namespace svcpp::core {

const LobbyMemberRecord *LobbyRecord::FindMember(uint64_t memberId) const {
    auto it = std::find_if(members.begin(), members.end(),
                           [memberId](const LobbyMemberRecord &m) { return m.id == memberId; });
    return it == members.end() ? nullptr : &*it;
}

std::vector<uint64_t> LobbyRecord::MemberIds() const {
    std::vector<uint64_t> ids;
    ids.reserve(members.size());
    for (const auto &member : members) ids.push_back(member.id);
    return ids;
}

bool LobbyCache::Put(LobbyRecord lobby) {
    std::lock_guard lock(mutex_);
    const uint64_t id = lobby.id;
    return lobbies_.insert_or_assign(id, std::move(lobby)).second;
}

bool LobbyCache::Remove(uint64_t lobbyId) {
    std::lock_guard lock(mutex_);
    return lobbies_.erase(lobbyId) > 0;
}

std::optional<LobbyCache::MemberChange> LobbyCache::PutMember(uint64_t lobbyId, LobbyMemberRecord member) {
    std::lock_guard lock(mutex_);
    auto lobby = lobbies_.find(lobbyId);
    if (lobby == lobbies_.end()) return std::nullopt;
    auto &members = lobby->second.members;
    auto it =
        std::find_if(members.begin(), members.end(), [&](const LobbyMemberRecord &m) { return m.id == member.id; });
    if (it == members.end()) {
        members.push_back(std::move(member));
        return MemberChange::Added;
    }
    *it = std::move(member);
    return MemberChange::Updated;
}

bool LobbyCache::RemoveMember(uint64_t lobbyId, uint64_t memberId) {
    std::lock_guard lock(mutex_);
    auto lobby = lobbies_.find(lobbyId);
    if (lobby == lobbies_.end()) return false;
    auto &members = lobby->second.members;
    auto it =
        std::find_if(members.begin(), members.end(), [&](const LobbyMemberRecord &m) { return m.id == memberId; });
    if (it == members.end()) return false;
    members.erase(it);
    return true;
}

std::optional<LobbyRecord> LobbyCache::Get(uint64_t lobbyId) const {
    std::lock_guard lock(mutex_);
    auto it = lobbies_.find(lobbyId);
    if (it == lobbies_.end()) return std::nullopt;
    return it->second;
}

std::optional<LobbyMemberRecord> LobbyCache::GetMember(uint64_t lobbyId, uint64_t memberId) const {
    std::lock_guard lock(mutex_);
    auto it = lobbies_.find(lobbyId);
    if (it == lobbies_.end()) return std::nullopt;
    const LobbyMemberRecord *member = it->second.FindMember(memberId);
    if (!member) return std::nullopt;
    return *member;
}

bool LobbyCache::Contains(uint64_t lobbyId) const {
    std::lock_guard lock(mutex_);
    return lobbies_.count(lobbyId) > 0;
}

std::vector<uint64_t> LobbyCache::Ids() const {
    std::lock_guard lock(mutex_);
    std::vector<uint64_t> ids;
    ids.reserve(lobbies_.size());
    for (const auto &[id, lobby] : lobbies_) ids.push_back(id);
    return ids;
}

std::vector<uint64_t> LobbyCache::Clear() {
    std::map<uint64_t, LobbyRecord> old;
    {
        std::lock_guard lock(mutex_);
        old.swap(lobbies_);
    }
    std::vector<uint64_t> ids;
    for (const auto &[id, lobby] : old) ids.push_back(id);
    return ids;
}

}  // namespace svcpp::core
