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

// ---- Queries (the relationships area's views) ---------------------------------------------------------------

std::optional<RelationshipHandle> Client::GetRelationshipHandle(uint64_t userId) const {
    return relationships_.Relationship(userId);
}
std::vector<RelationshipHandle> Client::GetRelationships() const { return relationships_.All(); }
std::vector<RelationshipHandle> Client::GetRelationshipsByGroup(RelationshipGroupType groupType) const {
    return relationships_.ByGroup(groupType);
}
std::vector<UserHandle> Client::SearchFriendsByUsername(std::string searchStr) const {
    return relationships_.SearchFriends(searchStr);
}

// ---- Changes ----------------------------------------------------------------------------------------------

void Client::ChangeRelationship(uint64_t userId, Action action, bool platformAxis,
                                ClientUpdateRelationshipCallback &&cb) {
    auto op = RelationshipOperation::Begin(operations_, std::move(cb));
    if (userId == 0) return op->Fail(FailureResult(ErrorType::ValidationError, "userId must not be 0"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const uint64_t selfId = users_.Cache()->CurrentUserId();
    const auto me = users_.Cache()->Get(selfId);
    const relationships::Self self{selfId, me && me->provisional};
    RelationshipRecord current = users_.Cache()->Relationships().Get(userId).value_or(RelationshipRecord{userId});
    if (auto error = relationships::CheckTransition(self, userId, current, action, platformAxis))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));

    const std::string base = apiBase_ + "/users/@me/relationships/" + std::to_string(userId);
    const std::string token = CurrentToken();
    net::HttpRequest request;
    switch (action) {
        case Action::SendRequest:
        case Action::Accept:  // a request to someone whose request is pending accepts it
            request = auth::BearerJsonRequest("PUT", base, "PUT /users/@me/relationships/:id", token,
                                              {{"type", 1}, {"game", !platformAxis}});
            break;
        case Action::Block:
            request = auth::BearerJsonRequest("PUT", base, "PUT /users/@me/relationships/:id", token, {{"type", 2}});
            break;
        default: {
            const char *name = action == Action::Reject   ? "reject"
                               : action == Action::Cancel ? "cancel"
                               : action == Action::Remove ? "remove"
                                                          : "unblock";
            // RemovePlatformAndGameFriend: a platform removal also ends the game friendship; a game-only friend is
            // removed on the game axis.
            bool game = !platformAxis;
            if (action == Action::Remove && platformAxis && current.platform != RelationshipType::Friend) game = true;
            if (action == Action::Unblock) game = false;
            request = auth::BearerRequest("DELETE", base + "?action=" + name + "&game=" + (game ? "true" : "false"),
                                          "DELETE /users/@me/relationships/:id", token);
        }
    }
    Rest(std::move(request), [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::RequestByName(std::string username, bool platformAxis, Callback<void(const ClientResult &)> &&cb) {
    auto op = RelationshipOperation::Begin(operations_, std::move(cb));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const auto me = users_.Cache()->Get(users_.Cache()->CurrentUserId());
    const relationships::Self self{me ? me->id : 0, me && me->provisional};
    if (auto error = relationships::CheckRequestByName(self, me ? me->username : std::string(), username, platformAxis))
        return op->Fail(FailureResult(ErrorType::ValidationError, *error));
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/relationships", "POST /users/@me/relationships",
                                 CurrentToken(), {{"username", username}, {"game", !platformAxis}}),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::SendPlatformFriendRequest(std::string username, ClientSendFriendRequestCallback &&cb) {
    RequestByName(std::move(username), true, std::move(cb));
}
void Client::SendGameFriendRequest(std::string username, ClientUpdateRelationshipCallback &&cb) {
    RequestByName(std::move(username), false, std::move(cb));
}

#define SVCPP_RELATIONSHIP_CHANGE(method, action, platformAxis)                   \
    void Client::method(uint64_t userId, ClientUpdateRelationshipCallback &&cb) { \
        ChangeRelationship(userId, action, platformAxis, std::move(cb));          \
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
