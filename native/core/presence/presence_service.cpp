#include "presence/presence_service.hpp"

#include <nlohmann/json.hpp>

#include "invites/activity_invite_json.hpp"
#include "net/json_fields.hpp"
#include "net/results.hpp"
#include "presence/activity_validation.hpp"
#include "presence/presence_json.hpp"
#include "presence/presence_routes.hpp"

namespace svcpp::core::presence {

namespace {

using Kind = PresenceEvent::Kind;

void ApplyPresence(UserCache &users, const PresenceContext &context, const nlohmann::json &presence,
                   std::vector<PresenceEvent> *events) {
    const uint64_t id = wire::Snowflake(wire::Member(presence, "user"), "id");
    if (!id) return;
    // A missing status means the user has no session left (PROTOCOL.md §10.2: offline, no activities).
    const StatusType status = ParseStatus(wire::OptionalString(presence, "status").value_or("offline"));
    auto activity = GameActivityOf(wire::Member(presence, "activities"), context.applicationId);
    const auto before = relationships::GroupOfUser(users, id);
    if (!users.SetPresence(id, status, activity) || !events) return;
    events->push_back({Kind::UserUpdated, id});
    if (relationships::GroupOfUser(users, id) != before) events->push_back({Kind::GroupsUpdated, id});
}

}  // namespace

uint64_t ReadyApplicationId(const nlohmann::json &ready) {
    return wire::Snowflake(wire::Member(ready, "application"), "id");
}

std::vector<PresenceEvent> Apply(UserCache &users, const PresenceContext &context, std::string_view type,
                                 const nlohmann::json &data) {
    std::vector<PresenceEvent> events;
    if (type == "READY") {
        // The initial state: no events (the host reads the caches once Ready).
        const auto &presences = wire::Member(data, "presences");
        if (presences.is_array())
            for (const auto &presence : presences) ApplyPresence(users, context, presence, nullptr);
    } else if (type == "PRESENCE_UPDATE") {
        ApplyPresence(users, context, data, &events);
    } else if (type == "ACTIVITY_INVITE_CREATE") {
        events.push_back({Kind::InviteCreated, 0, invites::ParseActivityInvite(data)});
    } else if (type == "ACTIVITY_INVITE_UPDATE") {
        events.push_back({Kind::InviteUpdated, 0, invites::ParseActivityInvite(data)});
    }
    return events;
}

uint64_t PresenceService::SessionApplicationId() const {
    const uint64_t session = sessionApplicationId_.load();
    return session ? session : clientApplicationId_();
}

void PresenceService::Register(DispatchTable &table) {
    table.On("READY", [this](std::string_view type, const nlohmann::json &data) {
        sessionApplicationId_.store(ReadyApplicationId(data));
        Post(Apply(*users_.Cache(), {SessionApplicationId()}, type, data));
    });
    for (const char *type : {"PRESENCE_UPDATE", "ACTIVITY_INVITE_CREATE", "ACTIVITY_INVITE_UPDATE"})
        table.On(type, [this](std::string_view t, const nlohmann::json &data) {
            Post(Apply(*users_.Cache(), {SessionApplicationId()}, t, data));
        });
}

void PresenceService::Post(const std::vector<PresenceEvent> &events) {
    for (const auto &e : events) {
        switch (e.kind) {
            case Kind::UserUpdated: users_.Updated().Post(e.userId); break;
            case Kind::GroupsUpdated: relationships_.GroupsUpdated().Post(e.userId); break;
            case Kind::InviteCreated: inviteCreated_.Post(e.invite); break;
            case Kind::InviteUpdated: inviteUpdated_.Post(e.invite); break;
        }
    }
}

void PresenceService::ReleaseRegistrations() {
    inviteCreated_.Set({});
    inviteUpdated_.Set({});
}

// ---- Operations (native/SEMANTICS.md "Social layer: relationships, presence, invites") --------------------------
// UpdateRichPresence validates every activity limit locally before anything is sent.

namespace {
using PresenceOperation = Operation<void(const ClientResult &)>;
}  // namespace

void PresenceService::UpdateRichPresence(Activity activity, ClientUpdateRichPresenceCallback &&cb) {
    auto op = PresenceOperation::Begin(host_.Ops(), std::move(cb));
    if (auto error = ValidateActivity(activity))
        return op->Fail(FailureResult(ErrorType::ValidationError, "activity." + *error));
    if (auto failure = host_.NotReady()) {
        // Not connected to the gateway: a local platform client sets the activity for the desktop user instead.
        if (setLocalActivity_(ActivityToWire(activity), [op](ClientResult result) { op->Complete(std::move(result)); }))
            return;
        return op->Fail(*failure);
    }
    host_.Rest(host_.JsonRequest(routes::kSetPresence, {}, {{"activity", ActivityToWire(activity)}}),
               [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void PresenceService::LogClearFailure(const ClientResult &result) {
    if (result.type != ErrorType::None)
        host_.Log().Log(LoggingSeverity::Error, "ClearRichPresence failed: " + result.error);
}

void PresenceService::ClearRichPresence() {
    if (auto failure = host_.NotReady()) {
        const bool local = setLocalActivity_(nullptr, [this](ClientResult result) { LogClearFailure(result); });
        if (!local) host_.Log().Log(LoggingSeverity::Warning, "ClearRichPresence: " + failure->error);
        return;
    }
    // Fire and forget (the reference has no callback): a failure is logged.
    host_.Rest(host_.JsonRequest(routes::kSetPresence, {}, {{"activity", nullptr}}),
               [this](net::HttpResponse response) { LogClearFailure(net::ResultFromHttp(response)); });
}

void PresenceService::SetOnlineStatus(StatusType status, ClientUpdateStatusCallback &&cb) {
    auto op = PresenceOperation::Begin(host_.Ops(), std::move(cb));
    const char *wireStatus = SettableStatusWire(status);
    if (!wireStatus) {
        return op->Fail(
            FailureResult(ErrorType::ValidationError,
                          std::string("status must be Online, Idle, Dnd or Invisible (got ") + ToString(status) + ")"));
    }
    if (auto failure = host_.NotReady()) return op->Fail(*failure);
    host_.Rest(host_.JsonRequest(routes::kSetPresence, {}, {{"status", wireStatus}}),
               [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

}  // namespace svcpp::core::presence
