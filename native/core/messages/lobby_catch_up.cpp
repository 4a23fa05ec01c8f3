#include "messages/lobby_catch_up.hpp"

#include <algorithm>

namespace svcpp::core::messages {

bool LobbyCatchUp::Admit(uint64_t lobbyId, uint64_t messageId) {
    Lobby &lobby = lobbies_[lobbyId];
    if (lobby.seen.contains(messageId)) return false;
    if (lobby.catchingUp || messageId <= lobby.fetchedUpTo) lobby.seen.insert(messageId);
    lobby.newest = std::max(lobby.newest, messageId);
    return true;
}

void LobbyCatchUp::Reset() {
    lobbies_.clear();
    ++epoch_;
}

std::vector<LobbyCatchUp::Fetch> LobbyCatchUp::BeginGap(const std::vector<uint64_t> &lobbyIds) {
    ++epoch_;
    std::map<uint64_t, Lobby> kept;
    std::vector<Fetch> fetches;
    for (uint64_t id : lobbyIds) {
        auto it = lobbies_.find(id);
        if (it == lobbies_.end()) continue;
        Lobby lobby = std::move(it->second);
        if (lobby.newest == 0) continue;
        const uint64_t after = lobby.catchingUp ? lobby.cursor : lobby.newest;
        // Pages of this catch-up hold only ids above `after`: older entries can no longer come back.
        std::erase_if(lobby.seen, [after](uint64_t seenId) { return seenId <= after; });
        lobby.catchingUp = true;
        lobby.cursor = after;
        fetches.push_back({id, after, epoch_});
        kept.emplace(id, std::move(lobby));
    }
    lobbies_ = std::move(kept);
    return fetches;
}

bool LobbyCatchUp::IsCurrent(const Fetch &fetch) const {
    if (fetch.epoch != epoch_) return false;
    auto it = lobbies_.find(fetch.lobbyId);
    return it != lobbies_.end() && it->second.catchingUp;
}

std::optional<LobbyCatchUp::Fetch> LobbyCatchUp::PageDone(const Fetch &fetch, uint64_t newestId, bool full) {
    if (!IsCurrent(fetch)) return std::nullopt;
    Lobby &lobby = lobbies_[fetch.lobbyId];
    lobby.cursor = std::max(lobby.cursor, newestId);
    lobby.fetchedUpTo = std::max(lobby.fetchedUpTo, newestId);
    if (full && newestId > fetch.after) return Fetch{fetch.lobbyId, lobby.cursor, epoch_};
    Finish(lobby);
    return std::nullopt;
}

void LobbyCatchUp::Abandon(const Fetch &fetch) {
    if (IsCurrent(fetch)) Finish(lobbies_[fetch.lobbyId]);
}

void LobbyCatchUp::Finish(Lobby &lobby) {
    lobby.catchingUp = false;
    // Live messages newer than every fetched page can no longer come twice.
    const uint64_t bound = lobby.fetchedUpTo;
    std::erase_if(lobby.seen, [bound](uint64_t seenId) { return seenId > bound; });
}

}  // namespace svcpp::core::messages
