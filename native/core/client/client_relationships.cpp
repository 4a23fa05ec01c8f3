// Client: relationships (native/SEMANTICS.md "Social layer: relationships, presence, invites") over
// platform/PROTOCOL.md §10.1. The cache is filled from READY and RELATIONSHIP_ADD / RELATIONSHIP_REMOVE (one axis per
// dispatch); every change method checks its precondition against the cache first (ValidationError, nothing sent) and
// then makes one REST call. Its completion does not touch the cache: the dispatch that follows does (and fires the
// Created/Deleted events).
#include <nlohmann/json.hpp>

#include "auth/requests.hpp"
#include "client/client_net.hpp"
#include "net/json_fields.hpp"
#include "net/results.hpp"
#include "relationships/relationship_groups.hpp"
#include "relationships/relationship_rules.hpp"

namespace svcpp::core {

namespace {

using relationships::Action;
using RelationshipOperation = Operation<void(const ClientResult &)>;


}  // namespace

// ---- Dispatches -----------------------------------------------------------------------------------------

void Client::OnRelationshipsDispatch(const std::string &type, const nlohmann::json &data) {
    if (type == "READY") {
        sessionApplicationId_.store(wire::Snowflake(wire::Member(data, "application"), "id"));
        std::vector<RelationshipRecord> records;
        const auto &list = wire::Member(data, "relationships");
        if (list.is_array()) {
            for (const auto &object : list) {
                RelationshipRecord record = ParseRelationship(object);
                if (!record.id) continue;
                UserRecord user = ParseUser(wire::Member(object, "user"));
                if (user.id == record.id) users_->Upsert(user);
                records.push_back(record);
            }
        }
        users_->Relationships().Replace(records);
        return;
    }
    const bool added = type == "RELATIONSHIP_ADD";
    if (!added && type != "RELATIONSHIP_REMOVE") return;
    const RelationshipChange change = ParseRelationshipChange(data, !added);
    if (!change.id) return;
    UserRecord user = ParseUser(wire::Member(data, "user"));
    if (user.id == change.id) users_->Upsert(user);
    const auto before = GroupOfUser(change.id);
    if (!users_->Relationships().Apply(change)) return;
    (added ? relationshipCreated_ : relationshipDeleted_).Post(change.id, change.platformAxis);
    PostGroupChange(change.id, before);
}

std::optional<RelationshipGroupType> Client::GroupOfUser(uint64_t userId) const {
    auto relationship = users_->Relationships().Get(userId);
    if (!relationship) return std::nullopt;
    auto user = users_->Get(userId);
    return relationships::GroupOf(*relationship, user ? &*user : nullptr);
}

void Client::PostGroupChange(uint64_t userId, std::optional<RelationshipGroupType> before) {
    if (GroupOfUser(userId) != before) relationshipGroupsUpdated_.Post(userId);
}

// ---- Queries ----------------------------------------------------------------------------------------------

std::optional<RelationshipHandle> Client::GetRelationshipHandle(uint64_t userId) const {
    if (!users_->Relationships().Get(userId)) return std::nullopt;
    return RelationshipHandle(users_, userId);
}

std::vector<RelationshipHandle> Client::GetRelationships() const {
    std::vector<RelationshipHandle> handles;
    for (const auto &r : users_->Relationships().All()) handles.emplace_back(users_, r.id);
    return handles;
}

std::vector<RelationshipHandle> Client::GetRelationshipsByGroup(RelationshipGroupType groupType) const {
    std::vector<RelationshipHandle> handles;
    for (uint64_t id : relationships::MembersOf(groupType, users_->Relationships().All(), *users_)) handles.emplace_back(users_, id);
    return handles;
}

std::vector<UserHandle> Client::SearchFriendsByUsername(std::string searchStr) const {
    std::vector<UserHandle> handles;
    for (uint64_t id : relationships::SearchFriends(searchStr, users_->Relationships().All(), *users_)) handles.emplace_back(users_, id);
    return handles;
}

// ---- Changes ----------------------------------------------------------------------------------------------

void Client::ChangeRelationship(uint64_t userId, Action action, bool platformAxis, ClientUpdateRelationshipCallback &&cb) {
    auto op = RelationshipOperation::Begin(operations_, std::move(cb));
    if (userId == 0) return op->Fail(FailureResult(ErrorType::ValidationError, "userId must not be 0"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const uint64_t selfId = users_->CurrentUserId();
    const auto me = users_->Get(selfId);
    const relationships::Self self{selfId, me && me->provisional};
    RelationshipRecord current = users_->Relationships().Get(userId).value_or(RelationshipRecord{userId});
    if (auto error = relationships::CheckTransition(self, userId, current, action, platformAxis))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));

    const std::string base = apiBase_ + "/users/@me/relationships/" + std::to_string(userId);
    const std::string token = CurrentToken();
    net::HttpRequest request;
    switch (action) {
        case Action::SendRequest:
        case Action::Accept:  // a request to someone whose request is pending accepts it
            request = auth::BearerJsonRequest("PUT", base, "PUT /users/@me/relationships/:id", token, {{"type", 1}, {"game", !platformAxis}});
            break;
        case Action::Block:
            request = auth::BearerJsonRequest("PUT", base, "PUT /users/@me/relationships/:id", token, {{"type", 2}});
            break;
        default: {
            const char *name = action == Action::Reject ? "reject" : action == Action::Cancel ? "cancel" : action == Action::Remove ? "remove" : "unblock";
            // RemovePlatformAndGameFriend: a platform removal also ends the game friendship; a game-only friend is
            // removed on the game axis.
            bool game = !platformAxis;
            if (action == Action::Remove && platformAxis && current.platform != RelationshipType::Friend) game = true;
            if (action == Action::Unblock) game = false;
            request = auth::BearerRequest("DELETE", base + "?action=" + name + "&game=" + (game ? "true" : "false"), "DELETE /users/@me/relationships/:id", token);
        }
    }
    Rest(std::move(request), [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::RequestByName(std::string username, bool platformAxis, Callback<void(const ClientResult &)> &&cb) {
    auto op = RelationshipOperation::Begin(operations_, std::move(cb));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const auto me = users_->Get(users_->CurrentUserId());
    const relationships::Self self{me ? me->id : 0, me && me->provisional};
    if (auto error = relationships::CheckRequestByName(self, me ? me->username : std::string(), username, platformAxis))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/relationships", "POST /users/@me/relationships", CurrentToken(),
                                 {{"username", username}, {"game", !platformAxis}}),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::SendPlatformFriendRequest(std::string username, ClientSendFriendRequestCallback &&cb) { RequestByName(std::move(username), true, std::move(cb)); }
void Client::SendGameFriendRequest(std::string username, ClientUpdateRelationshipCallback &&cb) { RequestByName(std::move(username), false, std::move(cb)); }

#define SVCPP_RELATIONSHIP_CHANGE(method, action, platformAxis)                        \
    void Client::method(uint64_t userId, ClientUpdateRelationshipCallback &&cb) {      \
        ChangeRelationship(userId, action, platformAxis, std::move(cb));                   \
    }
SVCPP_RELATIONSHIP_CHANGE(SendPlatformFriendRequestById, Action::SendRequest, true)
SVCPP_RELATIONSHIP_CHANGE(SendGameFriendRequestById, Action::SendRequest, false)
SVCPP_RELATIONSHIP_CHANGE(AcceptPlatformFriendRequest, Action::Accept, true)
SVCPP_RELATIONSHIP_CHANGE(AcceptGameFriendRequest, Action::Accept, false)
SVCPP_RELATIONSHIP_CHANGE(RejectPlatformFriendRequest, Action::Reject, true)
SVCPP_RELATIONSHIP_CHANGE(RejectGameFriendRequest, Action::Reject, false)
SVCPP_RELATIONSHIP_CHANGE(CancelPlatformFriendRequest, Action::Cancel, true)
SVCPP_RELATIONSHIP_CHANGE(CancelGameFriendRequest, Action::Cancel, false)
SVCPP_RELATIONSHIP_CHANGE(RemovePlatformAndGameFriend, Action::Remove, true)
SVCPP_RELATIONSHIP_CHANGE(RemoveGameFriend, Action::Remove, false)
SVCPP_RELATIONSHIP_CHANGE(BlockUser, Action::Block, true)
SVCPP_RELATIONSHIP_CHANGE(UnblockUser, Action::Unblock, true)
#undef SVCPP_RELATIONSHIP_CHANGE

}  // namespace svcpp::core
