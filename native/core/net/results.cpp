#include "net/results.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "net/json_fields.hpp"
#include "net/json_text.hpp"

namespace svcpp::core::net {

namespace {

HttpStatusCode StatusOf(int status) {
    return IsHttpStatusCode(status) ? static_cast<HttpStatusCode>(status) : HttpStatusCode::None;
}

/** retry_after from the 429 body (seconds, fractional), else the Retry-After header (whole seconds). */
float RetryAfterOf(const HttpResponse &response, const nlohmann::json &body) {
    const auto &retryAfter = wire::Member(body, "retry_after");
    if (retryAfter.is_number()) return retryAfter.get<float>();
    std::string header = response.Header("retry-after");
    return header.empty() ? 0.0f : std::strtof(header.c_str(), nullptr);
}

}  // namespace

ClientResult ResultFromHttp(const HttpResponse &response) {
    ClientResult r;
    if (response.status == 0) {
        r.type = ErrorType::NetworkError;
        r.error = response.networkError.empty() ? "network error" : response.networkError;
        r.retryable = IsTransient(response.failure);
        return r;
    }
    if (response.status >= 200 && response.status < 300) return r;

    r.type = ErrorType::HTTPError;
    r.status = StatusOf(response.status);
    r.responseBody = response.body;
    nlohmann::json body = net::ParseJson(response.body);
    r.errorCode = wire::Int(body, "code", 0);
    // The API's {code, message}; the OAuth2 endpoints' {error, error_description}.
    r.error = wire::OptionalString(body, "message")
                  .value_or(wire::OptionalString(body, "error_description").value_or(wire::String(body, "error")));
    if (r.error.empty()) r.error = "HTTP " + std::to_string(response.status);
    if (response.status == 429) {
        r.retryable = true;
        r.retryAfter = RetryAfterOf(response, body);
    } else if (response.status == 502 || response.status == 503 || response.status == 504) {
        r.retryable = true;
    }
    return r;
}

ClientResult ResultFromOAuthHttp(const HttpResponse &response) {
    ClientResult r = ResultFromHttp(response);
    if (r.type != ErrorType::HTTPError) return r;
    nlohmann::json body = net::ParseJson(response.body);
    const std::string error = wire::String(body, "error");
    if (error == "invalid_grant" || error == "invalid_client" || error == "unauthorized_client" ||
        error == "access_denied") {
        r.type = ErrorType::AuthorizationFailed;
        std::string description = wire::String(body, "error_description");
        r.error = description.empty() ? error : error + ": " + description;
    }
    return r;
}

std::optional<nlohmann::json> JsonBody(const HttpResponse &response, ClientResult &result) {
    nlohmann::json body = net::ParseJson(response.body);
    if (body.is_discarded()) {
        result.type = ErrorType::NetworkError;
        result.error = "the response body is not JSON";
        result.retryable = false;
        return std::nullopt;
    }
    return body;
}

}  // namespace svcpp::core::net
