// The presence area (native/SEMANTICS.md "Social layer: relationships, presence, invites", platform/PROTOCOL.md §10.2
// and the activity invites): the reducer of READY's `presences`, PRESENCE_UPDATE and ACTIVITY_INVITE_*, the invite
// event slots, and the rich presence and status calls. A presence change is a change of the user (UserUpdated, the
// users area's slot) and may move the user between friends-list groups (GroupsUpdated, the relationships area's slot).
#pragma once
#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "generated/callbacks.hpp"
#include "generated/values.hpp"
#include "relationships/relationships_service.hpp"
#include "runtime/dispatch_table.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/service_host.hpp"
#include "users/user_cache.hpp"
#include "users/users_service.hpp"

namespace svcpp::core::presence {

struct PresenceEvent {
    enum class Kind { UserUpdated, GroupsUpdated, InviteCreated, InviteUpdated };
    Kind kind;
    uint64_t userId = 0;      // UserUpdated, GroupsUpdated
    ActivityInvite invite{};  // InviteCreated, InviteUpdated
};

/** What the reducer reads besides the user cache: whose activity is "this game's". */
struct PresenceContext {
    /** The application of this game: READY's, else the client's SetApplicationId. */
    uint64_t applicationId = 0;
};

/**
 * READY: every presence applied without events (the initial state). PRESENCE_UPDATE: the user's status and this
 * game's activity; UserUpdated when it changed, then GroupsUpdated when the user's group changed.
 * ACTIVITY_INVITE_CREATE / _UPDATE: the invite. Other types: nothing.
 */
std::vector<PresenceEvent> Apply(UserCache &users, const PresenceContext &context, std::string_view type,
                                 const nlohmann::json &data);

/** READY's `application.id` (0 when absent). */
uint64_t ReadyApplicationId(const nlohmann::json &ready);

/**
 * Rich presence without a gateway session: SET_ACTIVITY through the local platform client (`activity` null clears
 * it). False, and nothing sent, when no local client is connected; else `done` runs on the I/O thread.
 */
using LocalActivityFn = std::function<bool(const nlohmann::json &activity, std::function<void(ClientResult)> done)>;

class PresenceService {
  public:
    PresenceService(CallbackQueue &queue, ServiceHost &host, users::UsersService &users,
                    relationships::RelationshipsService &relationships, std::function<uint64_t()> clientApplicationId,
                    LocalActivityFn setLocalActivity)
        : host_(host),
          users_(users),
          relationships_(relationships),
          clientApplicationId_(std::move(clientApplicationId)),
          setLocalActivity_(std::move(setLocalActivity)),
          inviteCreated_(queue),
          inviteUpdated_(queue) {}

    void Register(DispatchTable &table);
    void Post(const std::vector<PresenceEvent> &events);

    /** The application whose activity is "this game's": READY's, else SetApplicationId's. */
    uint64_t SessionApplicationId() const;

    EventSlot<void(const ActivityInvite &)> &InviteCreated() { return inviteCreated_; }
    EventSlot<void(const ActivityInvite &)> &InviteUpdated() { return inviteUpdated_; }
    void ReleaseRegistrations();

    // Operations (the C ABI's Client_<Name> of this area).
    void UpdateRichPresence(Activity activity, ClientUpdateRichPresenceCallback &&cb);
    void ClearRichPresence();
    void SetOnlineStatus(StatusType status, ClientUpdateStatusCallback &&cb);
    void SetActivityInviteCreatedCallback(ClientActivityInviteCallback &&cb) { inviteCreated_.Set(std::move(cb)); }
    void SetActivityInviteUpdatedCallback(ClientActivityInviteCallback &&cb) { inviteUpdated_.Set(std::move(cb)); }

  private:
    /** Logs a failed ClearRichPresence (it has no callback). */
    void LogClearFailure(const ClientResult &result);

    ServiceHost &host_;
    users::UsersService &users_;
    relationships::RelationshipsService &relationships_;
    std::function<uint64_t()> clientApplicationId_;
    LocalActivityFn setLocalActivity_;
    std::atomic<uint64_t> sessionApplicationId_{0};  // READY's application.id
    EventSlot<void(const ActivityInvite &)> inviteCreated_;
    EventSlot<void(const ActivityInvite &)> inviteUpdated_;
};

}  // namespace svcpp::core::presence
