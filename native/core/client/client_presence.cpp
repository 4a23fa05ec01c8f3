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

uint64_t Client::SessionApplicationId() const {
    const uint64_t session = sessionApplicationId_.load();
    return session ? session : GetApplicationId();
}

// ---- Dispatches -----------------------------------------------------------------------------------------

void Client::OnPresenceDispatch(const std::string &type, const nlohmann::json &data) {
    if (type == "READY") {
        // The initial state: no events (the host reads the caches once Ready).
        const auto &presences = wire::Member(data, "presences");
        if (presences.is_array())
            for (const auto &presence : presences) ApplyPresence(presence, false);
    } else if (type == "PRESENCE_UPDATE") {
        ApplyPresence(data, true);
    } else if (type == "ACTIVITY_INVITE_CREATE") {
        activityInviteCreated_.Post(invites::ParseActivityInvite(data));
    } else if (type == "ACTIVITY_INVITE_UPDATE") {
        activityInviteUpdated_.Post(invites::ParseActivityInvite(data));
    }
}

void Client::ApplyPresence(const nlohmann::json &presence, bool notify) {
    const uint64_t id = wire::Snowflake(wire::Member(presence, "user"), "id");
    if (!id) return;
    // A missing status means the user has no session left (PROTOCOL.md §10.2: offline, no activities).
    const StatusType status = presence::ParseStatus(wire::OptionalString(presence, "status").value_or("offline"));
    auto activity = presence::GameActivityOf(wire::Member(presence, "activities"), SessionApplicationId());
    const auto before = GroupOfUser(id);
    if (!users_->SetPresence(id, status, activity) || !notify) return;
    userUpdated_.Post(id);
    PostGroupChange(id, before);
}

// ---- Methods ----------------------------------------------------------------------------------------------

void Client::UpdateRichPresence(Activity activity, ClientUpdateRichPresenceCallback &&cb) {
    auto op = PresenceOperation::Begin(operations_, std::move(cb));
    if (auto error = presence::ValidateActivity(activity)) return op->Fail(FailureResult(ErrorType::ValidationError, "activity." + *error));
    if (auto failure = NotReady()) {
        // Not connected to the gateway: a local platform client sets the activity for the desktop user instead.
        if (SetLocalActivity(presence::ActivityToWire(activity), [op](ClientResult result) { op->Complete(std::move(result)); })) return;
        return op->Fail(*failure);
    }
    nlohmann::json body = {{"activity", presence::ActivityToWire(activity)}};
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/presence", "POST /users/@me/presence", CurrentToken(), body),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::ClearRichPresence() {
    if (auto failure = NotReady()) {
        const bool local = SetLocalActivity(nullptr, [this](ClientResult result) {
            if (result.type != ErrorType::None) logger_.Log(LoggingSeverity::Error, "ClearRichPresence failed: " + result.error);
        });
        if (!local) logger_.Log(LoggingSeverity::Warning, "ClearRichPresence: " + failure->error);
        return;
    }
    // Fire and forget (the reference has no callback): a failure is logged.
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/presence", "POST /users/@me/presence", CurrentToken(), {{"activity", nullptr}}),
         [this](net::HttpResponse response) {
             ClientResult result = net::ResultFromHttp(response);
             if (result.type != ErrorType::None) logger_.Log(LoggingSeverity::Error, "ClearRichPresence failed: " + result.error);
         });
}

void Client::SetOnlineStatus(StatusType status, ClientUpdateStatusCallback &&cb) {
    auto op = PresenceOperation::Begin(operations_, std::move(cb));
    const char *wireStatus = presence::SettableStatusWire(status);
    if (!wireStatus) {
        return op->Fail(FailureResult(ErrorType::ValidationError,
                                      std::string("status must be Online, Idle, Dnd or Invisible (got ") + ToString(status) + ")"));
    }
    if (auto failure = NotReady()) return op->Fail(*failure);
    Rest(auth::BearerJsonRequest("POST", apiBase_ + "/users/@me/presence", "POST /users/@me/presence", CurrentToken(), {{"status", wireStatus}}),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

}  // namespace svcpp::core
