// The messages area's endpoints of the HTTP API (platform/PROTOCOL.md §10.4–10.5): lobby chat and direct messages.
#pragma once
#include "net/route.hpp"

namespace svcpp::core::messages::routes {

inline constexpr net::Route kSendToLobby{"POST", "/lobbies/{id}/messages"};
inline constexpr net::Route kLobbyHistory{"GET", "/lobbies/{id}/messages"};
inline constexpr net::Route kSendToUser{"POST", "/users/{id}/messages"};
inline constexpr net::Route kEditUserMessage{"PATCH", "/users/{id}/messages/{id}"};
inline constexpr net::Route kDeleteUserMessage{"DELETE", "/users/{id}/messages/{id}"};
inline constexpr net::Route kDmHistory{"GET", "/users/@me/dms/{id}/messages"};
inline constexpr net::Route kDmSummaries{"GET", "/users/@me/dms"};

}  // namespace svcpp::core::messages::routes
