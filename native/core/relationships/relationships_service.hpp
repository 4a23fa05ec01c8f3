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

#include "generated/callbacks.hpp"
#include "relationships/relationship_handle.hpp"
#include "relationships/relationship_rules.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/service_host.hpp"
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
    RelationshipsService(CallbackQueue &queue, ServiceHost &host, std::shared_ptr<UserCache> users)
        : host_(host), users_(std::move(users)), created_(queue), deleted_(queue), groupsUpdated_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<RelationshipEvent> &events);

    EventSlot<void(uint64_t, bool)> &Created() { return created_; }
    EventSlot<void(uint64_t, bool)> &Deleted() { return deleted_; }
    EventSlot<void(uint64_t)> &GroupsUpdated() { return groupsUpdated_; }
    void ReleaseRegistrations();

    // Operations (the C ABI's Client_<Name> of this area). Every change checks its precondition against the cache
    // first (ValidationError, nothing sent) and then makes one REST call. Its completion does not touch the cache:
    // the dispatch that follows does (and fires the Created/Deleted events).
    std::optional<RelationshipHandle> GetRelationshipHandle(uint64_t userId) const;
    std::vector<RelationshipHandle> GetRelationships() const;
    std::vector<RelationshipHandle> GetRelationshipsByGroup(RelationshipGroupType groupType) const;
    std::vector<UserHandle> SearchFriendsByUsername(std::string searchStr) const;
    void SendPlatformFriendRequest(std::string username, ClientSendFriendRequestCallback &&cb);
    void SendGameFriendRequest(std::string username, ClientUpdateRelationshipCallback &&cb);
    void SendPlatformFriendRequestById(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void SendGameFriendRequestById(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void AcceptPlatformFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void AcceptGameFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RejectPlatformFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RejectGameFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void CancelPlatformFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void CancelGameFriendRequest(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RemovePlatformAndGameFriend(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void RemoveGameFriend(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void BlockUser(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void UnblockUser(uint64_t userId, ClientUpdateRelationshipCallback &&cb);
    void SetRelationshipCreatedCallback(ClientRelationshipCreatedCallback &&cb) { created_.Set(std::move(cb)); }
    void SetRelationshipDeletedCallback(ClientRelationshipDeletedCallback &&cb) { deleted_.Set(std::move(cb)); }
    void SetRelationshipGroupsUpdatedCallback(ClientRelationshipGroupsUpdatedCallback &&cb) {
        groupsUpdated_.Set(std::move(cb));
    }

  private:
    /** The checks and the request of one relationship change by user id. */
    void Change(uint64_t userId, Action action, Axis axis, ClientUpdateRelationshipCallback &&cb);
    void RequestByName(std::string username, Axis axis, Callback<void(const ClientResult &)> &&cb);

    ServiceHost &host_;
    std::shared_ptr<UserCache> users_;
    EventSlot<void(uint64_t, bool)> created_;
    EventSlot<void(uint64_t, bool)> deleted_;
    EventSlot<void(uint64_t)> groupsUpdated_;
};

}  // namespace svcpp::core::relationships
