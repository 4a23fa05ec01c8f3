// The relationships area's endpoints of the HTTP API (platform/PROTOCOL.md §10.1).
#pragma once
#include "net/route.hpp"

namespace svcpp::core::relationships::routes {

inline constexpr net::Route kRequestByName{"POST", "/users/@me/relationships"};
// PUT sends a request (or accepts one) or blocks; DELETE ends one, its query names how (action, axis).
inline constexpr net::Route kPut{"PUT", "/users/@me/relationships/{id}"};
inline constexpr net::Route kDelete{"DELETE", "/users/@me/relationships/{id}"};

}  // namespace svcpp::core::relationships::routes
