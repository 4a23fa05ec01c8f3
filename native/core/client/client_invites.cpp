// Client: game invites (native/SEMANTICS.md "Social layer: relationships, presence, invites") over platform/PROTOCOL.md
// §10.3. Invites arrive as ACTIVITY_INVITE_CREATE / _UPDATE (client_presence.cpp routes them to the events); these are
// the sending and accepting calls. Local checks (ValidationError, nothing sent): a user id, not oneself, the invite's
// type. Whether the activity is joinable is the platform's check (80020): the own presence may lag behind an
// UpdateRichPresence that just completed.
#include <nlohmann/json.hpp>

#include "auth/requests.hpp"
#include "client/client_net.hpp"
#include "invites/activity_invite_json.hpp"
#include "net/results.hpp"

namespace svcpp::core {

namespace {
using InviteOperation = Operation<void(const ClientResult &)>;
using AcceptOperation = Operation<void(const ClientResult &, std::string_view)>;
}  // namespace

void Client::PostActivityInvite(uint64_t userId, ActivityActionTypes type, std::string content,
                                ClientSendActivityInviteCallback &&cb) {
    auto op = InviteOperation::Begin(operations_, std::move(cb));
    if (userId == 0) return op->Fail(FailureResult(ErrorType::ValidationError, "userId must not be 0"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    if (userId == users_.Cache()->CurrentUserId())
        return op->Fail(FailureResult(ErrorType::ValidationError, "cannot invite yourself"));
    const std::string user = std::to_string(userId);
    // The user id is a major parameter of the route (the platform limits per recipient).
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/" + user + "/activity-invites",
                                 "POST /users/" + user + "/activity-invites", CurrentToken(),
                                 invites::InviteRequestBody(type, content)),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::SendActivityInvite(uint64_t userId, std::string content, ClientSendActivityInviteCallback &&cb) {
    PostActivityInvite(userId, ActivityActionTypes::Join, std::move(content), std::move(cb));
}

void Client::SendActivityJoinRequest(uint64_t userId, ClientSendActivityInviteCallback &&cb) {
    PostActivityInvite(userId, ActivityActionTypes::JoinRequest, {}, std::move(cb));
}

void Client::SendActivityJoinRequestReply(ActivityInvite invite, ClientSendActivityInviteCallback &&cb) {
    if (invite.type != ActivityActionTypes::JoinRequest) {
        auto op = InviteOperation::Begin(operations_, std::move(cb));
        return op->Fail(FailureResult(ErrorType::ValidationError, "the invite is not a join request"));
    }
    // The reply is an invite (type Join) to whoever asked.
    PostActivityInvite(invite.senderId, ActivityActionTypes::Join, {}, std::move(cb));
}

void Client::AcceptActivityInvite(ActivityInvite invite, ClientAcceptActivityInviteCallback &&cb) {
    auto op = AcceptOperation::Begin(operations_, std::move(cb));
    if (invite.type != ActivityActionTypes::Join)
        return op->Fail(FailureResult(ErrorType::ValidationError, "only invites of type Join can be accepted"));
    if (invite.messageId == 0)
        return op->Fail(FailureResult(ErrorType::ValidationError, "the invite has no message id"));
    if (!invite.isValid) return op->Fail(FailureResult(ErrorType::ValidationError, "the invite is no longer valid"));
    if (auto failure = NotReady()) return op->Fail(*failure);
    const std::string message = std::to_string(invite.messageId);
    Rest(auth::BearerRequest("POST", apiBase_ + "/users/@me/activity-invites/" + message + "/accept",
                             "POST /users/@me/activity-invites/:id/accept", CurrentToken()),
         [op](net::HttpResponse response) {
             std::string secret;
             ClientResult result = net::ReadJson(response, secret, invites::JoinSecretOf);
             op->Complete(std::move(result), std::move(secret));
         });
}

}  // namespace svcpp::core
