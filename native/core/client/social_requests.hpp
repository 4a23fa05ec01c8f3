// Request helpers shared by the lobby and message areas of the Client (client_lobbies.cpp, client_messages.cpp).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "auth/requests.hpp"
#include "net/http.hpp"

namespace svcpp::core::social {

/** A Bearer request with a JSON body. */
inline net::HttpRequest JsonBearer(const char *method, std::string url, std::string route, const std::string &token, const nlohmann::json &body) {
    net::HttpRequest r = auth::BearerRequest(method, std::move(url), std::move(route), token);
    r.headers.emplace_back("Content-Type", "application/json");
    r.body = body.dump();
    return r;
}

}  // namespace svcpp::core::social
