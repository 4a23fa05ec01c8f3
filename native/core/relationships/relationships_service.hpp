// The relationships area (native/SEMANTICS.md "Social layer: relationships, presence, invites", platform/PROTOCOL.md
// §10.1): its event slots and the pure reducer of READY's `relationships` and RELATIONSHIP_ADD / _REMOVE (one axis
// per dispatch). The relationship cache lives in the user cache (a group depends on the user's presence), which the
// users area owns.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "relationships/relationship_handle.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/event_slot.hpp"
#include "users/user_cache.hpp"
#include "users/user_handle.hpp"

namespace svcpp::core::relationships {

struct RelationshipEvent {
    enum class Kind { Created, Deleted, GroupsUpdated };
    Kind kind;
    uint64_t userId = 0;
    bool platformAxis = false;  // Created / Deleted only

    bool operator==(const RelationshipEvent &) const = default;
};

/** The friends-list group of a user (nullopt: no friendship on either axis). */
std::optional<RelationshipGroupType> GroupOfUser(const UserCache &users, uint64_t userId);

/**
 * READY: the relationship cache becomes READY's list (no events: the host reads it once Ready).
 * RELATIONSHIP_ADD / _REMOVE: one axis changes; Created / Deleted when the cache changed, then GroupsUpdated when
 * the user's group changed. Users carried by the dispatch go into the user cache. Other types: nothing.
 */
std::vector<RelationshipEvent> Apply(UserCache &users, std::string_view type, const nlohmann::json &data);

class RelationshipsService {
  public:
    RelationshipsService(CallbackQueue &queue, std::shared_ptr<UserCache> users)
        : users_(std::move(users)), created_(queue), deleted_(queue), groupsUpdated_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<RelationshipEvent> &events);

    EventSlot<void(uint64_t, bool)> &Created() { return created_; }
    EventSlot<void(uint64_t, bool)> &Deleted() { return deleted_; }
    EventSlot<void(uint64_t)> &GroupsUpdated() { return groupsUpdated_; }
    void ReleaseRegistrations();

    std::optional<RelationshipHandle> Relationship(uint64_t userId) const;
    std::vector<RelationshipHandle> All() const;
    std::vector<RelationshipHandle> ByGroup(RelationshipGroupType group) const;
    std::vector<UserHandle> SearchFriends(const std::string &search) const;

  private:
    std::shared_ptr<UserCache> users_;
    EventSlot<void(uint64_t, bool)> created_;
    EventSlot<void(uint64_t, bool)> deleted_;
    EventSlot<void(uint64_t)> groupsUpdated_;
};

}  // namespace svcpp::core::relationships
