// Client: presence and rich presence (native/SEMANTICS.md "Social layer: relationships, presence, invites") over
// platform/PROTOCOL.md §10.2. PRESENCE_UPDATE (and READY's `presences`) set a user's status and the activity of this
// application (UserHandle::GameActivity); a change fires UserUpdated and, when the user's friends-list group changed,
// RelationshipGroupsUpdated. UpdateRichPresence validates every activity limit locally before anything is sent.
#include <nlohmann/json.hpp>

#include "auth/requests.hpp"
#include "client/client_net.hpp"
#include "invites/activity_invite_json.hpp"
#include "net/json_fields.hpp"
#include "net/results.hpp"
#include "presence/activity_validation.hpp"
#include "presence/presence_json.hpp"

namespace svcpp::core {

namespace {
using PresenceOperation = Operation<void(const ClientResult &)>;
}  // namespace

// ---- Methods ----------------------------------------------------------------------------------------------

void Client::UpdateRichPresence(Activity activity, ClientUpdateRichPresenceCallback &&cb) {
    auto op = PresenceOperation::Begin(operations_, std::move(cb));
    if (auto error = presence::ValidateActivity(activity))
        return op->Fail(FailureResult(ErrorType::ValidationError, "activity." + *error));
    if (auto failure = NotReady()) {
        // Not connected to the gateway: a local platform client sets the activity for the desktop user instead.
        if (SetLocalActivity(presence::ActivityToWire(activity),
                             [op](ClientResult result) { op->Complete(std::move(result)); }))
            return;
        return op->Fail(*failure);
    }
    nlohmann::json body = {{"activity", presence::ActivityToWire(activity)}};
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/presence", "POST /users/@me/presence", CurrentToken(),
                                 body),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::ClearRichPresence() {
    if (auto failure = NotReady()) {
        const bool local = SetLocalActivity(nullptr, [this](ClientResult result) {
            if (result.type != ErrorType::None)
                logger_.Log(LoggingSeverity::Error, "ClearRichPresence failed: " + result.error);
        });
        if (!local) logger_.Log(LoggingSeverity::Warning, "ClearRichPresence: " + failure->error);
        return;
    }
    // Fire and forget (the reference has no callback): a failure is logged.
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/presence", "POST /users/@me/presence", CurrentToken(),
                                 {{"activity", nullptr}}),
         [this](net::HttpResponse response) {
             ClientResult result = net::ResultFromHttp(response);
             if (result.type != ErrorType::None)
                 logger_.Log(LoggingSeverity::Error, "ClearRichPresence failed: " + result.error);
         });
}

void Client::SetOnlineStatus(StatusType status, ClientUpdateStatusCallback &&cb) {
    auto op = PresenceOperation::Begin(operations_, std::move(cb));
    const char *wireStatus = presence::SettableStatusWire(status);
    if (!wireStatus) {
        return op->Fail(
            FailureResult(ErrorType::ValidationError,
                          std::string("status must be Online, Idle, Dnd or Invisible (got ") + ToString(status) + ")"));
    }
    if (auto failure = NotReady()) return op->Fail(*failure);
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/presence", "POST /users/@me/presence", CurrentToken(),
                                 {{"status", wireStatus}}),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

}  // namespace svcpp::core
