// The game invites' endpoints of the HTTP API (platform/PROTOCOL.md §10.3).
#pragma once
#include "net/route.hpp"

namespace svcpp::core::invites::routes {

// The recipient is a major parameter of the route: the platform limits invites per recipient.
inline constexpr net::Route kSendInvite{"POST", "/users/{major}/activity-invites"};
inline constexpr net::Route kAcceptInvite{"POST", "/users/@me/activity-invites/{id}/accept"};

}  // namespace svcpp::core::invites::routes
