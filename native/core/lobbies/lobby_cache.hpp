// The client's cache of the lobbies the signed-in user is a member of (READY `lobbies`, then LOBBY_*
// dispatches). Written on the I/O thread, read from any thread through LobbyHandle / LobbyMemberHandle;
// updated before the matching event is queued (native/SEMANTICS.md "Pump and hook").
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "generated/values.hpp"
#include "net/json_maps.hpp"

namespace svcpp::core {

/** Member flag bits (platform/PROTOCOL.md §10.5: 1 = CanLinkLobby). */
inline constexpr uint32_t kLobbyMemberCanLinkLobby = 1u << 0;

struct LobbyMemberRecord {
    uint64_t id = 0;
    bool connected = false;
    Properties metadata;
    uint32_t flags = 0;
    std::optional<std::string> additionalName;

    bool operator==(const LobbyMemberRecord &) const = default;
};

struct LobbyRecord {
    uint64_t id = 0;
    uint64_t applicationId = 0;
    Properties metadata;
    std::vector<LobbyMemberRecord> members;  // in the order the platform listed them
    std::optional<LinkedChannel> linkedChannel;

    const LobbyMemberRecord *FindMember(uint64_t memberId) const;
    /** The members' ids, in the platform's order. */
    std::vector<uint64_t> MemberIds() const;
};

class LobbyCache {
  public:
    enum class MemberChange { Added, Updated };

    /** Inserts or replaces a lobby; true when it was not cached before. */
    bool Put(LobbyRecord lobby);
    /** Forgets a lobby; false when it was not cached. */
    bool Remove(uint64_t lobbyId);
    /** Inserts or replaces a member of a cached lobby; nullopt when the lobby is not cached. */
    std::optional<MemberChange> PutMember(uint64_t lobbyId, LobbyMemberRecord member);
    /** Removes a member; false when the lobby or the member is not cached. */
    bool RemoveMember(uint64_t lobbyId, uint64_t memberId);

    /** A copy of a whole lobby: every member and their metadata. Handles read with Read() instead. */
    std::optional<LobbyRecord> Get(uint64_t lobbyId) const;
    /**
     * `read(lobby)` under the cache's lock, without copying the lobby; nullopt when it is not cached. Handles
     * and snapshots read one field per call, and a lobby has up to 1,000 members with metadata: copying it
     * for each read made a message snapshot cost O(members).
     */
    template <typename Reader>
    auto Read(uint64_t lobbyId, Reader &&read) const
        -> std::optional<std::invoke_result_t<Reader, const LobbyRecord &>> {
        std::lock_guard lock(mutex_);
        auto it = lobbies_.find(lobbyId);
        if (it == lobbies_.end()) return std::nullopt;
        return read(it->second);
    }
    std::optional<LobbyMemberRecord> GetMember(uint64_t lobbyId, uint64_t memberId) const;
    bool Contains(uint64_t lobbyId) const;
    /** The cached lobbies' ids, ascending. */
    std::vector<uint64_t> Ids() const;
    /** Forgets every lobby; returns their ids (the client reports them deleted: the connection lost them). */
    std::vector<uint64_t> Clear();

  private:
    mutable std::mutex mutex_;
    std::map<uint64_t, LobbyRecord> lobbies_;
};

}  // namespace svcpp::core
