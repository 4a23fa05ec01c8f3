#include "invites/invites_service.hpp"

#include <nlohmann/json.hpp>

#include "invites/activity_invite_json.hpp"
#include "invites/invites_routes.hpp"
#include "net/results.hpp"

namespace svcpp::core::invites {

namespace {
using InviteOperation = Operation<void(const ClientResult &)>;
using AcceptOperation = Operation<void(const ClientResult &, std::string_view)>;
}  // namespace

void InvitesService::PostActivityInvite(uint64_t userId, ActivityActionTypes type, std::string content,
                                        ClientSendActivityInviteCallback &&cb) {
    auto op = InviteOperation::Begin(host_.Ops(), std::move(cb));
    if (userId == 0) return op->Fail(FailureResult(ErrorType::ValidationError, "userId must not be 0"));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    if (userId == users_->CurrentUserId())
        return op->Fail(FailureResult(ErrorType::ValidationError, "cannot invite yourself"));
    host_.Rest(host_.JsonRequest(routes::kSendInvite, {userId}, InviteRequestBody(type, content)),
               [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void InvitesService::SendActivityInvite(uint64_t userId, std::string content, ClientSendActivityInviteCallback &&cb) {
    PostActivityInvite(userId, ActivityActionTypes::Join, std::move(content), std::move(cb));
}

void InvitesService::SendActivityJoinRequest(uint64_t userId, ClientSendActivityInviteCallback &&cb) {
    PostActivityInvite(userId, ActivityActionTypes::JoinRequest, {}, std::move(cb));
}

void InvitesService::SendActivityJoinRequestReply(ActivityInvite invite, ClientSendActivityInviteCallback &&cb) {
    if (invite.type != ActivityActionTypes::JoinRequest) {
        auto op = InviteOperation::Begin(host_.Ops(), std::move(cb));
        return op->Fail(FailureResult(ErrorType::ValidationError, "the invite is not a join request"));
    }
    // The reply is an invite (type Join) to whoever asked.
    PostActivityInvite(invite.senderId, ActivityActionTypes::Join, {}, std::move(cb));
}

void InvitesService::AcceptActivityInvite(ActivityInvite invite, ClientAcceptActivityInviteCallback &&cb) {
    auto op = AcceptOperation::Begin(host_.Ops(), std::move(cb));
    if (invite.type != ActivityActionTypes::Join)
        return op->Fail(FailureResult(ErrorType::ValidationError, "only invites of type Join can be accepted"));
    if (invite.messageId == 0)
        return op->Fail(FailureResult(ErrorType::ValidationError, "the invite has no message id"));
    if (!invite.isValid) return op->Fail(FailureResult(ErrorType::ValidationError, "the invite is no longer valid"));
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    host_.Rest(host_.Request(routes::kAcceptInvite, {invite.messageId}), [op](net::HttpResponse response) {
        std::string secret;
        ClientResult result = net::ReadJson(response, secret, JoinSecretOf);
        op->Complete(std::move(result), std::move(secret));
    });
}

}  // namespace svcpp::core::invites
