#include "net/results.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace svcpp::core::net {

namespace {

HttpStatusCode StatusOf(int status) {
    return IsHttpStatusCode(status) ? static_cast<HttpStatusCode>(status) : HttpStatusCode::None;
}

/** retry_after from the 429 body (seconds, fractional), else the Retry-After header (whole seconds). */
float RetryAfterOf(const HttpResponse &response, const nlohmann::json &body) {
    if (body.is_object() && body.contains("retry_after") && body["retry_after"].is_number()) return body["retry_after"].get<float>();
    std::string header = response.Header("retry-after");
    return header.empty() ? 0.0f : std::strtof(header.c_str(), nullptr);
}

}  // namespace

ClientResult ResultFromHttp(const HttpResponse &response) {
    ClientResult r;
    if (response.status == 0) {
        r.type = ErrorType::NetworkError;
        r.error = response.networkError.empty() ? "network error" : response.networkError;
        r.retryable = true;
        return r;
    }
    if (response.status >= 200 && response.status < 300) return r;

    r.type = ErrorType::HTTPError;
    r.status = StatusOf(response.status);
    r.responseBody = response.body;
    nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
    if (body.is_object()) {
        if (body.contains("code") && body["code"].is_number_integer()) r.errorCode = body["code"].get<int32_t>();
        if (body.contains("message") && body["message"].is_string()) r.error = body["message"].get<std::string>();
        else if (body.contains("error_description") && body["error_description"].is_string()) r.error = body["error_description"].get<std::string>();
        else if (body.contains("error") && body["error"].is_string()) r.error = body["error"].get<std::string>();
    }
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
    nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
    if (!body.is_object() || !body.contains("error") || !body["error"].is_string()) return r;
    const std::string error = body["error"].get<std::string>();
    if (error == "invalid_grant" || error == "invalid_client" || error == "unauthorized_client" || error == "access_denied") {
        r.type = ErrorType::AuthorizationFailed;
        std::string description = body.value("error_description", std::string());
        r.error = description.empty() ? error : error + ": " + description;
    }
    return r;
}

std::optional<nlohmann::json> JsonBody(const HttpResponse &response, ClientResult &result) {
    nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
    if (body.is_discarded()) {
        result.type = ErrorType::NetworkError;
        result.error = "the response body is not JSON";
        result.retryable = false;
        return std::nullopt;
    }
    return body;
}

}  // namespace svcpp::core::net
