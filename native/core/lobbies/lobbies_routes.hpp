// The lobbies area's endpoints of the HTTP API (platform/PROTOCOL.md §10.5).
#pragma once
#include "net/route.hpp"

namespace svcpp::core::lobbies::routes {

inline constexpr net::Route kCreateOrJoin{"PUT", "/lobbies"};
inline constexpr net::Route kLeave{"DELETE", "/lobbies/{id}/members/@me"};
inline constexpr net::Route kChannelLinking{"PATCH", "/lobbies/{id}/channel-linking"};
inline constexpr net::Route kGuildInvite{"POST", "/lobbies/{id}/members/@me/invites"};

}  // namespace svcpp::core::lobbies::routes
