// HTTP responses -> ClientResult (native/SEMANTICS.md "Operations"): the one place that decides Type, Retryable and
// RetryAfter.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>  // ReadJson below needs the complete type

#include "generated/values.hpp"
#include "net/http.hpp"

namespace svcpp::core::net {

/** A 2xx response is success; 0 is NetworkError; anything else HTTPError with the body's code and message. */
ClientResult ResultFromHttp(const HttpResponse &response);

/**
 * Like ResultFromHttp for the OAuth2 endpoints: an RFC 6749 error that means "these credentials are no good"
 * (invalid_grant, invalid_client, unauthorized_client, access_denied) is AuthorizationFailed — what a host
 * treats exactly like the deauthorization webhook.
 */
ClientResult ResultFromOAuthHttp(const HttpResponse &response);

/** The JSON body of a successful response, or nullopt (with result set to a NetworkError) when it is not JSON. */
std::optional<nlohmann::json> JsonBody(const HttpResponse &response, ClientResult &result);

/** ResultFromHttp, and on success `out = parse(body)`; returns the result (out untouched on failure). */
template <class T, class Parse>
ClientResult ReadJson(const HttpResponse &response, T &out, Parse parse) {
    ClientResult result = ResultFromHttp(response);
    if (result.type != ErrorType::None) return result;
    if (auto body = JsonBody(response, result)) out = parse(*body);
    return result;
}

}  // namespace svcpp::core::net
