#include "relationships/relationships_service.hpp"

#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"
#include "net/results.hpp"
#include "relationships/relationship_groups.hpp"
#include "relationships/relationships_routes.hpp"

namespace svcpp::core::relationships {

using Kind = RelationshipEvent::Kind;

std::optional<RelationshipGroupType> GroupOfUser(const UserCache &users, uint64_t userId) {
    auto relationship = users.Relationships().Get(userId);
    if (!relationship) return std::nullopt;
    auto user = users.Get(userId);
    return GroupOf(*relationship, user ? &*user : nullptr);
}

std::vector<RelationshipEvent> Apply(UserCache &users, std::string_view type, const nlohmann::json &data) {
    if (type == "READY") {
        std::vector<RelationshipRecord> records;
        const auto &list = wire::Member(data, "relationships");
        if (list.is_array()) {
            for (const auto &object : list) {
                RelationshipRecord record = ParseRelationship(object);
                if (!record.id) continue;
                UserRecord user = ParseUser(wire::Member(object, "user"));
                if (user.id == record.id) users.Upsert(user);
                records.push_back(record);
            }
        }
        users.Relationships().Replace(records);
        return {};
    }
    const bool added = type == "RELATIONSHIP_ADD";
    if (!added && type != "RELATIONSHIP_REMOVE") return {};
    const RelationshipChange change = ParseRelationshipChange(data, !added);
    if (!change.id) return {};
    UserRecord user = ParseUser(wire::Member(data, "user"));
    if (user.id == change.id) users.Upsert(user);
    const auto before = GroupOfUser(users, change.id);
    if (!users.Relationships().Apply(change)) return {};
    std::vector<RelationshipEvent> events{{added ? Kind::Created : Kind::Deleted, change.id, change.platformAxis}};
    if (GroupOfUser(users, change.id) != before) events.push_back({Kind::GroupsUpdated, change.id});
    return events;
}

void RelationshipsService::Register(DispatchTable &table) {
    for (const char *type : {"READY", "RELATIONSHIP_ADD", "RELATIONSHIP_REMOVE"})
        table.On(type, [this](std::string_view t, const nlohmann::json &data) { Post(Apply(*users_, t, data)); });
}

void RelationshipsService::Post(const std::vector<RelationshipEvent> &events) {
    for (const auto &e : events) {
        switch (e.kind) {
            case Kind::Created: created_.Post(e.userId, e.platformAxis); break;
            case Kind::Deleted: deleted_.Post(e.userId, e.platformAxis); break;
            case Kind::GroupsUpdated: groupsUpdated_.Post(e.userId); break;
        }
    }
}

void RelationshipsService::ReleaseRegistrations() {
    created_.Set({});
    deleted_.Set({});
    groupsUpdated_.Set({});
}

std::optional<RelationshipHandle> RelationshipsService::GetRelationshipHandle(uint64_t userId) const {
    if (!users_->Relationships().Get(userId)) return std::nullopt;
    return RelationshipHandle(users_, userId);
}

std::vector<RelationshipHandle> RelationshipsService::GetRelationships() const {
    std::vector<RelationshipHandle> handles;
    for (const auto &r : users_->Relationships().All()) handles.emplace_back(users_, r.id);
    return handles;
}

std::vector<RelationshipHandle> RelationshipsService::GetRelationshipsByGroup(RelationshipGroupType group) const {
    std::vector<RelationshipHandle> handles;
    for (uint64_t id : MembersOf(group, users_->Relationships().All(), *users_)) handles.emplace_back(users_, id);
    return handles;
}

std::vector<UserHandle> RelationshipsService::SearchFriendsByUsername(std::string search) const {
    std::vector<UserHandle> handles;
    for (uint64_t id : relationships::SearchFriends(search, users_->Relationships().All(), *users_))
        handles.emplace_back(users_, id);
    return handles;
}

// ---- Changes (native/SEMANTICS.md "Social layer: relationships, presence, invites") -----------------------------

namespace {
using RelationshipOperation = Operation<void(const ClientResult &)>;

const char *DeleteActionName(Action action) {
    switch (action) {
        case Action::Reject: return "reject";
        case Action::Cancel: return "cancel";
        case Action::Remove: return "remove";
        default: return "unblock";
    }
}
}  // namespace

void RelationshipsService::Change(uint64_t userId, Action action, Axis axis, ClientUpdateRelationshipCallback &&cb) {
    auto op = RelationshipOperation::Begin(host_.Ops(), std::move(cb));
    if (userId == 0) return op->Fail(FailureResult(ErrorType::ValidationError, "userId must not be 0"));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    const uint64_t selfId = users_->CurrentUserId();
    const auto me = users_->Get(selfId);
    const Self self{selfId, me && me->provisional};
    RelationshipRecord current = users_->Relationships().Get(userId).value_or(RelationshipRecord{userId});
    if (auto error = CheckTransition(self, userId, current, action, axis))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));

    net::HttpRequest request;
    switch (action) {
        case Action::SendRequest:
        case Action::Accept:  // a request to someone whose request is pending accepts it
            request = host_.JsonRequest(routes::kPut, {userId}, {{"type", 1}, {"game", axis == Axis::Game}});
            break;
        case Action::Block: request = host_.JsonRequest(routes::kPut, {userId}, {{"type", 2}}); break;
        default: {
            // RemovePlatformAndGameFriend: a platform removal also ends the game friendship; a game-only friend is
            // removed on the game axis.
            bool game = axis == Axis::Game;
            if (action == Action::Remove && axis == Axis::Platform && current.platform != RelationshipType::Friend)
                game = true;
            if (action == Action::Unblock) game = false;
            request = host_.Request(
                routes::kDelete, {userId},
                std::string("?action=") + DeleteActionName(action) + "&game=" + (game ? "true" : "false"));
        }
    }
    host_.Rest(std::move(request), [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void RelationshipsService::RequestByName(std::string username, Axis axis, Callback<void(const ClientResult &)> &&cb) {
    auto op = RelationshipOperation::Begin(host_.Ops(), std::move(cb));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    const auto me = users_->Get(users_->CurrentUserId());
    const Self self{me ? me->id : 0, me && me->provisional};
    if (auto error = CheckRequestByName(self, me ? me->username : std::string(), username, axis))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    host_.Rest(host_.JsonRequest(routes::kRequestByName, {}, {{"username", username}, {"game", axis == Axis::Game}}),
               [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void RelationshipsService::SendPlatformFriendRequest(std::string username, ClientSendFriendRequestCallback &&cb) {
    RequestByName(std::move(username), Axis::Platform, std::move(cb));
}
void RelationshipsService::SendGameFriendRequest(std::string username, ClientUpdateRelationshipCallback &&cb) {
    RequestByName(std::move(username), Axis::Game, std::move(cb));
}

#define SVCPP_RELATIONSHIP_CHANGE(method, action, axis)                                         \
    void RelationshipsService::method(uint64_t userId, ClientUpdateRelationshipCallback &&cb) { \
        Change(userId, action, axis, std::move(cb));                                            \
    }
SVCPP_RELATIONSHIP_CHANGE(SendPlatformFriendRequestById, Action::SendRequest, Axis::Platform)
SVCPP_RELATIONSHIP_CHANGE(SendGameFriendRequestById, Action::SendRequest, Axis::Game)
SVCPP_RELATIONSHIP_CHANGE(AcceptPlatformFriendRequest, Action::Accept, Axis::Platform)
SVCPP_RELATIONSHIP_CHANGE(AcceptGameFriendRequest, Action::Accept, Axis::Game)
SVCPP_RELATIONSHIP_CHANGE(RejectPlatformFriendRequest, Action::Reject, Axis::Platform)
SVCPP_RELATIONSHIP_CHANGE(RejectGameFriendRequest, Action::Reject, Axis::Game)
SVCPP_RELATIONSHIP_CHANGE(CancelPlatformFriendRequest, Action::Cancel, Axis::Platform)
SVCPP_RELATIONSHIP_CHANGE(CancelGameFriendRequest, Action::Cancel, Axis::Game)
SVCPP_RELATIONSHIP_CHANGE(RemovePlatformAndGameFriend, Action::Remove, Axis::Platform)
SVCPP_RELATIONSHIP_CHANGE(RemoveGameFriend, Action::Remove, Axis::Game)
SVCPP_RELATIONSHIP_CHANGE(BlockUser, Action::Block, Axis::Platform)
SVCPP_RELATIONSHIP_CHANGE(UnblockUser, Action::Unblock, Axis::Platform)
#undef SVCPP_RELATIONSHIP_CHANGE

}  // namespace svcpp::core::relationships
