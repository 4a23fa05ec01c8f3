// The messages area (direct messages platform/PROTOCOL.md §10.4, lobby chat §10.5): the message cache, its event
// slots, and the routing of MESSAGE_* / LOBBY_MESSAGE_* to the pure reducer of messages/message_dispatch. READY
// starts a new session, whose history is fetched again: the cache is cleared. After a gap, the client catches up on
// lobby chat (LobbyCatchUp): LOBBY_MESSAGE_CREATE of a message already delivered is dropped here.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "messages/lobby_catch_up.hpp"
#include "messages/message_cache.hpp"
#include "messages/message_dispatch.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/event_slot.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::messages {

class MessagesService {
  public:
    MessagesService(CallbackQueue &queue, std::shared_ptr<UserCache> users)
        : users_(std::move(users)), created_(queue), updated_(queue), deleted_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<MessageEvent> &events);

    const std::shared_ptr<MessageCache> &Cache() const { return cache_; }
    /** I/O thread only. */
    LobbyCatchUp &CatchUp() { return catchUp_; }
    EventSlot<void(uint64_t)> &Created() { return created_; }
    EventSlot<void(uint64_t)> &Updated() { return updated_; }
    EventSlot<void(uint64_t, uint64_t)> &Deleted() { return deleted_; }
    void ReleaseRegistrations();

  private:
    std::shared_ptr<UserCache> users_;
    std::shared_ptr<MessageCache> cache_ = std::make_shared<MessageCache>();
    LobbyCatchUp catchUp_;
    EventSlot<void(uint64_t)> created_;
    EventSlot<void(uint64_t)> updated_;
    EventSlot<void(uint64_t, uint64_t)> deleted_;
};

}  // namespace svcpp::core::messages
