// The game invites area (native/SEMANTICS.md "Social layer: relationships, presence, invites") over
// platform/PROTOCOL.md §10.3: the sending and accepting calls. Invites arrive as ACTIVITY_INVITE_CREATE / _UPDATE,
// which the presence area's reducer turns into its invite events. Local checks (ValidationError, nothing sent): a user
// id, not oneself, the invite's type. Whether the activity is joinable is the platform's check (80020): the own
// presence may lag behind an UpdateRichPresence that just completed.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "generated/callbacks.hpp"
#include "runtime/service_host.hpp"
#include "users/user_cache.hpp"

namespace svcpp::core::invites {

class InvitesService {
  public:
    InvitesService(ServiceHost &host, std::shared_ptr<const UserCache> users) : host_(host), users_(std::move(users)) {}

    void SendActivityInvite(uint64_t userId, std::string content, ClientSendActivityInviteCallback &&cb);
    void SendActivityJoinRequest(uint64_t userId, ClientSendActivityInviteCallback &&cb);
    void SendActivityJoinRequestReply(ActivityInvite invite, ClientSendActivityInviteCallback &&cb);
    void AcceptActivityInvite(ActivityInvite invite, ClientAcceptActivityInviteCallback &&cb);

  private:
    /** POST /users/{id}/activity-invites of type `type`. */
    void PostActivityInvite(uint64_t userId, ActivityActionTypes type, std::string content,
                            ClientSendActivityInviteCallback &&cb);

    ServiceHost &host_;
    std::shared_ptr<const UserCache> users_;
};

}  // namespace svcpp::core::invites
