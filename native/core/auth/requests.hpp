// The HTTP requests of the authentication methods (OAuth2 token endpoint, revocation, provisional accounts),
// and the parsing of their token responses. Public-client forms only: a game never holds a client secret.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "generated/values.hpp"
#include "net/http.hpp"

namespace svcpp::core::auth {

/** A token response (OAuth2 token endpoint, provisional and child tokens). */
struct TokenGrant {
    std::string accessToken;
    std::string refreshToken;  // empty when none was issued
    AuthorizationTokenType tokenType = AuthorizationTokenType::Bearer;
    int32_t expiresIn = 0;  // seconds
    std::string scopes;
};

/** An external credential for provisional accounts and merges. */
struct ExternalAuth {
    AuthenticationExternalAuthType type;
    std::string token;
};

/** The wire string of an external auth type (platform/PROTOCOL.md §5), e.g. "DISCORD_BOT_ISSUED_ACCESS_TOKEN". */
const char *ExternalAuthTypeWire(AuthenticationExternalAuthType type);

net::HttpRequest CodeExchangeRequest(const std::string &apiBase, uint64_t applicationId, const std::string &code,
                                     const std::string &codeVerifier, const std::string &redirectUri,
                                     const std::optional<ExternalAuth> &merge);
net::HttpRequest RefreshRequest(const std::string &apiBase, uint64_t applicationId, const std::string &refreshToken);
net::HttpRequest RevokeRequest(const std::string &apiBase, uint64_t applicationId, const std::string &token);
net::HttpRequest ProvisionalTokenRequest(const std::string &apiBase, uint64_t applicationId,
                                         const ExternalAuth &external);
net::HttpRequest UnmergeRequest(const std::string &apiBase, uint64_t applicationId, const ExternalAuth &external);
net::HttpRequest ChildTokenRequest(const std::string &apiBase, const std::string &parentToken,
                                   uint64_t childApplicationId);
net::HttpRequest DisplayNameRequest(const std::string &apiBase, const std::string &accessToken,
                                    const std::string &name);
/** A request authenticated with the user's access token. */
net::HttpRequest BearerRequest(const char *method, std::string url, std::string route, const std::string &accessToken);
/** A Bearer request with a JSON body. */
net::HttpRequest BearerJsonRequest(const char *method, std::string url, std::string route,
                                   const std::string &accessToken, const nlohmann::json &body);
/** GET /users/@me with the given token (FetchCurrentUser). */
net::HttpRequest CurrentUserRequest(const std::string &apiBase, const std::string &accessToken);
/** GET /oauth2/@me: the token's expiry and scopes (UpdateToken schedules the expiration callback from it). */
net::HttpRequest TokenInfoRequest(const std::string &apiBase, const std::string &accessToken);

/** Which endpoint answered a token request: their credential errors read differently. */
enum class GrantEndpoint {
    OAuth2,      // the OAuth2 token endpoint: its credential errors are AuthorizationFailed
    PartnerSdk,  // provisional and child tokens: the API's error body
};

/** Reads a token response. Returns the ClientResult; on success `grant` is filled. */
ClientResult ReadTokenGrant(const net::HttpResponse &response, GrantEndpoint endpoint, TokenGrant &grant);

/** Seconds until the `expires` ISO 8601 timestamp of /oauth2/@me, from now (nullopt when absent or malformed). */
std::optional<int64_t> SecondsUntilExpiry(const net::HttpResponse &response);

}  // namespace svcpp::core::auth
