// The presence area's endpoints of the HTTP API (platform/PROTOCOL.md §10.2).
#pragma once
#include "net/route.hpp"

namespace svcpp::core::presence::routes {

// Status and activity are set by one endpoint; a body names what changes.
inline constexpr net::Route kSetPresence{"POST", "/users/@me/presence"};

}  // namespace svcpp::core::presence::routes
