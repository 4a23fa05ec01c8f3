#include "auth/requests.hpp"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "net/form.hpp"
#include "net/json_fields.hpp"
#include "net/json_text.hpp"
#include "net/results.hpp"

namespace svcpp::core::auth {

namespace {

net::HttpRequest FormPost(const std::string &url, const char *route, const net::FormFields &fields) {
    net::HttpRequest r;
    r.method = "POST";
    r.url = url;
    r.route = route;
    r.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    r.body = net::EncodeForm(fields);
    return r;
}

net::HttpRequest JsonRequest(const char *method, const std::string &url, const char *route,
                             const nlohmann::json &body) {
    net::HttpRequest r;
    r.method = method;
    r.url = url;
    r.route = route;
    r.headers.emplace_back("Content-Type", "application/json");
    r.body = body.dump();
    return r;
}

void AddBearer(net::HttpRequest &r, const std::string &token) {
    r.headers.emplace_back("Authorization", "Bearer " + token);
}

}  // namespace

net::HttpRequest BearerRequest(const char *method, std::string url, std::string route, const std::string &accessToken) {
    net::HttpRequest r;
    r.method = method;
    r.url = std::move(url);
    r.route = std::move(route);
    AddBearer(r, accessToken);
    return r;
}

net::HttpRequest BearerJsonRequest(const char *method, std::string url, std::string route,
                                   const std::string &accessToken, const nlohmann::json &body) {
    net::HttpRequest r = BearerRequest(method, std::move(url), std::move(route), accessToken);
    r.headers.emplace_back("Content-Type", "application/json");
    r.body = body.dump();
    return r;
}

net::HttpRequest CurrentUserRequest(const std::string &apiBase, const std::string &accessToken) {
    return BearerRequest("GET", apiBase + "/users/@me", "GET /users/@me", accessToken);
}

const char *ExternalAuthTypeWire(AuthenticationExternalAuthType type) {
    switch (type) {
        case AuthenticationExternalAuthType::OIDC: return "OIDC";
        case AuthenticationExternalAuthType::EpicOnlineServicesAccessToken: return "EPIC_ONLINE_SERVICES_ACCESS_TOKEN";
        case AuthenticationExternalAuthType::EpicOnlineServicesIdToken: return "EPIC_ONLINE_SERVICES_ID_TOKEN";
        case AuthenticationExternalAuthType::SteamSessionTicket: return "STEAM_SESSION_TICKET";
        case AuthenticationExternalAuthType::UnityServicesIdToken: return "UNITY_SERVICES_ID_TOKEN";
        case AuthenticationExternalAuthType::PlatformBotIssuedAccessToken: return "DISCORD_BOT_ISSUED_ACCESS_TOKEN";
        case AuthenticationExternalAuthType::AppleIdToken: return "APPLE_ID_TOKEN";
        case AuthenticationExternalAuthType::PlayStationNetworkIdToken: return "PLAYSTATION_NETWORK_ID_TOKEN";
    }
    return "OIDC";
}

net::HttpRequest CodeExchangeRequest(const std::string &apiBase, uint64_t applicationId, const std::string &code,
                                     const std::string &codeVerifier, const std::string &redirectUri,
                                     const std::optional<ExternalAuth> &merge) {
    net::FormFields fields{{"grant_type", "authorization_code"},
                           {"client_id", std::to_string(applicationId)},
                           {"code", code},
                           {"code_verifier", codeVerifier},
                           {"redirect_uri", redirectUri}};
    if (merge) {
        fields.emplace_back("external_auth_type", ExternalAuthTypeWire(merge->type));
        fields.emplace_back("external_auth_token", merge->token);
    }
    return FormPost(apiBase + "/oauth2/token", "POST /oauth2/token", fields);
}

net::HttpRequest RefreshRequest(const std::string &apiBase, uint64_t applicationId, const std::string &refreshToken) {
    return FormPost(apiBase + "/oauth2/token", "POST /oauth2/token",
                    {{"grant_type", "refresh_token"},
                     {"client_id", std::to_string(applicationId)},
                     {"refresh_token", refreshToken}});
}

net::HttpRequest RevokeRequest(const std::string &apiBase, uint64_t applicationId, const std::string &token) {
    return FormPost(apiBase + "/oauth2/token/revoke", "POST /oauth2/token/revoke",
                    {{"client_id", std::to_string(applicationId)}, {"token", token}});
}

net::HttpRequest ProvisionalTokenRequest(const std::string &apiBase, uint64_t applicationId,
                                         const ExternalAuth &external) {
    return JsonRequest("POST", apiBase + "/partner-sdk/token", "POST /partner-sdk/token",
                       {{"client_id", std::to_string(applicationId)},
                        {"external_auth_type", ExternalAuthTypeWire(external.type)},
                        {"external_auth_token", external.token}});
}

net::HttpRequest UnmergeRequest(const std::string &apiBase, uint64_t applicationId, const ExternalAuth &external) {
    return JsonRequest("POST", apiBase + "/partner-sdk/provisional-accounts/unmerge",
                       "POST /partner-sdk/provisional-accounts/unmerge",
                       {{"client_id", std::to_string(applicationId)},
                        {"external_auth_type", ExternalAuthTypeWire(external.type)},
                        {"external_auth_token", external.token}});
}

net::HttpRequest ChildTokenRequest(const std::string &apiBase, const std::string &parentToken,
                                   uint64_t childApplicationId) {
    return JsonRequest(
        "POST", apiBase + "/partner-sdk/child-token", "POST /partner-sdk/child-token",
        {{"parent_access_token", parentToken}, {"child_application_id", std::to_string(childApplicationId)}});
}

net::HttpRequest DisplayNameRequest(const std::string &apiBase, const std::string &accessToken,
                                    const std::string &name) {
    auto r = JsonRequest("PATCH", apiBase + "/partner-sdk/provisional-accounts/@me",
                         "PATCH /partner-sdk/provisional-accounts/@me", {{"global_name", name}});
    AddBearer(r, accessToken);
    return r;
}

net::HttpRequest TokenInfoRequest(const std::string &apiBase, const std::string &accessToken) {
    return BearerRequest("GET", apiBase + "/oauth2/@me", "GET /oauth2/@me", accessToken);
}

ClientResult ReadTokenGrant(const net::HttpResponse &response, GrantEndpoint endpoint, TokenGrant &grant) {
    ClientResult result =
        endpoint == GrantEndpoint::OAuth2 ? net::ResultFromOAuthHttp(response) : net::ResultFromHttp(response);
    if (result.type != ErrorType::None) return result;
    auto body = net::JsonBody(response, result);
    if (!body) return result;
    auto accessToken = wire::OptionalString(*body, "access_token");
    if (!accessToken) {
        result.type = ErrorType::NetworkError;
        result.error = "the token response has no access_token";
        return result;
    }
    grant.accessToken = std::move(*accessToken);
    grant.refreshToken = wire::String(*body, "refresh_token");
    grant.expiresIn = wire::Int(*body, "expires_in", 0);
    grant.scopes = wire::String(*body, "scope");
    return result;
}

std::optional<int64_t> SecondsUntilExpiry(const net::HttpResponse &response) {
    nlohmann::json body = net::ParseJson(response.body);
    if (!body.is_object() || !body["expires"].is_string()) return std::nullopt;
    const std::string text = body["expires"].get<std::string>();
    // The date and time at the start of the text, what strptime's "%Y-%m-%dT%H:%M:%S" read before (a fraction and
    // an offset after it are ignored, as they were); sscanf and C++20's calendar instead of strptime and timegm,
    // which Windows' C runtime does not have.
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &year, &month, &day, &hour, &minute, &second) != 6)
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
        second < 0 || second > 61) {
        return std::nullopt;
    }
    // In seconds throughout: system_clock counts nanoseconds, which overflow past the year 2262 (a token that
    // "expires" in the year 3000 is a real answer). A day past its month's end counts on into the next, as timegm did.
    const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(unsigned(month)),
                                           std::chrono::day(1)};
    const int64_t days = std::chrono::sys_days(date).time_since_epoch().count() + (day - 1);
    const int64_t expires = days * 86400 + hour * 3600 + minute * 60 + second;
    const int64_t now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    return expires - now;
}

}  // namespace svcpp::core::auth
