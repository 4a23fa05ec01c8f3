// The users area: the user cache, the UserUpdated slot, and the reducer of READY's `user` and USER_UPDATE
// (platform/PROTOCOL.md §10). The reducer is pure (no I/O, no queue): it updates the cache and answers the events,
// so it is unit-tested on dispatch sequences; the service posts them.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "generated/callbacks.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/event_slot.hpp"
#include "users/user_cache.hpp"
#include "users/user_handle.hpp"

namespace svcpp::core::users {

struct UserEvent {
    enum class Kind { Updated };
    Kind kind;
    uint64_t userId = 0;

    bool operator==(const UserEvent &) const = default;
};

/**
 * READY: the cache restarts with the signed-in user (Online, the current user); USER_UPDATE: the user is merged into
 * the cache and reported Updated. Other types: nothing.
 */
std::vector<UserEvent> Apply(UserCache &users, std::string_view type, const nlohmann::json &data);

class UsersService {
  public:
    UsersService(CallbackQueue &queue, std::string cdnBase)
        : cache_(std::make_shared<UserCache>(std::move(cdnBase))), updated_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<UserEvent> &events);

    const std::shared_ptr<UserCache> &Cache() const { return cache_; }
    EventSlot<void(uint64_t)> &Updated() { return updated_; }
    void ReleaseRegistrations() { updated_.Set({}); }

    // Operations (the C ABI's Client_<Name> of this area).
    std::optional<UserHandle> GetCurrentUserV2() const;
    std::optional<UserHandle> GetCurrentUser() const { return GetCurrentUserV2(); }
    std::optional<UserHandle> GetUser(uint64_t userId) const;
    void SetUserUpdatedCallback(ClientUserUpdatedCallback &&cb) { updated_.Set(std::move(cb)); }

  private:
    std::shared_ptr<UserCache> cache_;
    EventSlot<void(uint64_t)> updated_;
};

}  // namespace svcpp::core::users
