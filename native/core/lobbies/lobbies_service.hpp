// The lobbies area (platform/PROTOCOL.md §10.5, native/SEMANTICS.md "Social layer: lobbies, lobby chat, direct
// messages"): the lobby cache, its six event slots, and the routing of READY `lobbies` and LOBBY_* to the pure
// reducers of lobbies/lobby_dispatch.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "lobbies/lobby_cache.hpp"
#include "lobbies/lobby_dispatch.hpp"
#include "lobbies/lobby_handle.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/event_slot.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::lobbies {

class LobbiesService {
  public:
    LobbiesService(CallbackQueue &queue, std::shared_ptr<UserCache> users)
        : users_(std::move(users)),
          created_(queue),
          deleted_(queue),
          updated_(queue),
          memberAdded_(queue),
          memberRemoved_(queue),
          memberUpdated_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<LobbyEvent> &events);
    /** The session ended: every lobby is forgotten and reported Deleted (lost with the connection). */
    void Clear();

    const std::shared_ptr<LobbyCache> &Cache() const { return cache_; }
    EventSlot<void(uint64_t)> &Created() { return created_; }
    EventSlot<void(uint64_t)> &Deleted() { return deleted_; }
    EventSlot<void(uint64_t)> &Updated() { return updated_; }
    EventSlot<void(uint64_t, uint64_t)> &MemberAdded() { return memberAdded_; }
    EventSlot<void(uint64_t, uint64_t)> &MemberRemoved() { return memberRemoved_; }
    EventSlot<void(uint64_t, uint64_t)> &MemberUpdated() { return memberUpdated_; }
    void ReleaseRegistrations();

  private:
    std::shared_ptr<UserCache> users_;
    std::shared_ptr<LobbyCache> cache_ = std::make_shared<LobbyCache>();
    EventSlot<void(uint64_t)> created_;
    EventSlot<void(uint64_t)> deleted_;
    EventSlot<void(uint64_t)> updated_;
    EventSlot<void(uint64_t, uint64_t)> memberAdded_;
    EventSlot<void(uint64_t, uint64_t)> memberRemoved_;
    EventSlot<void(uint64_t, uint64_t)> memberUpdated_;
};

}  // namespace svcpp::core::lobbies
