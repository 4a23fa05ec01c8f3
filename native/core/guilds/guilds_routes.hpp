// The guilds area's endpoints of the HTTP API (platform/PROTOCOL.md, the guilds page).
#pragma once
#include "net/route.hpp"

namespace svcpp::core::guilds::routes {

inline constexpr net::Route kUserGuilds{"GET", "/users/@me/guilds"};
// The guild id is a major parameter: it stays in the rate-limit route key.
inline constexpr net::Route kGuildChannels{"GET", "/guilds/{major}/channels"};

}  // namespace svcpp::core::guilds::routes
