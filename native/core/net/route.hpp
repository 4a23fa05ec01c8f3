// One endpoint of the platform's HTTP API, written once per area (the area's `*_routes.hpp`): its method and path
// template. Resolving it with the call's ids gives the request's URL and its rate-limit route key, so the path and the
// key can never disagree and no call spells either again.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace svcpp::core::net {

/**
 * Path templates hold two kinds of placeholder, filled from the ids in order:
 *   `{id}`     an id that is not part of the rate-limit key (the key reads ":id"), e.g. a message or a lobby;
 *   `{major}`  a major parameter, kept in the key: the platform limits per value (a guild, a recipient of invites).
 */
struct Route {
    const char *method;
    std::string_view path;  // from the API base, e.g. "/lobbies/{id}/messages"
};

struct ResolvedRoute {
    std::string path;      // the path with every id filled in (no API base, no query)
    std::string routeKey;  // HttpRequest::route: "POST /lobbies/:id/messages"
};

/** Fills the route's placeholders with `ids`; a count that differs from the template's is a programming error. */
ResolvedRoute Resolve(const Route &route, std::initializer_list<uint64_t> ids);

}  // namespace svcpp::core::net
