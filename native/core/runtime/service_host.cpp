#include "runtime/service_host.hpp"

#include <nlohmann/json.hpp>

#include "auth/requests.hpp"

namespace svcpp::core {

std::optional<ClientResult> ServiceHost::NoToken() const {
    if (Token().empty()) return FailureResult(ErrorType::ValidationError, kNoTokenMessage);
    return std::nullopt;
}

net::HttpRequest ServiceHost::Request(const net::Route &route, std::initializer_list<uint64_t> ids,
                                      std::string_view query) const {
    net::ResolvedRoute resolved = net::Resolve(route, ids);
    return auth::BearerRequest(route.method, ApiBase() + resolved.path + std::string(query),
                               std::move(resolved.routeKey), Token());
}

net::HttpRequest ServiceHost::JsonRequest(const net::Route &route, std::initializer_list<uint64_t> ids,
                                          const nlohmann::json &body) const {
    net::ResolvedRoute resolved = net::Resolve(route, ids);
    return auth::BearerJsonRequest(route.method, ApiBase() + resolved.path, std::move(resolved.routeKey), Token(),
                                   body);
}

}  // namespace svcpp::core
