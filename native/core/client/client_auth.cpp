// Client: the authentication methods (idl/surface.mjs "authentication"). Public-client flows only; every secret that
// passes through here is registered with the logger's redactor before anything can log it.
#include <nlohmann/json.hpp>

#include "auth/browser.hpp"
#include "auth/pkce.hpp"
#include "auth/requests.hpp"
#include "auth/scopes.hpp"
#include "client/client_net.hpp"
#include "net/form.hpp"
#include "net/results.hpp"
#include "values/client_result.hpp"

namespace svcpp::core {

namespace {

using TokenOperation = Operation<void(const ClientResult &, std::string_view, std::string_view, AuthorizationTokenType,
                                      int32_t, std::string_view)>;
using ResultOperation = Operation<void(const ClientResult &)>;
using AuthorizeOperation = Operation<void(const ClientResult &, std::string_view, std::string_view)>;

ClientResult Validation(std::string message) { return FailureResult(ErrorType::ValidationError, std::move(message)); }

constexpr const char *kNoApplicationId = "no application id: pass one or call SetApplicationId first";

/** A small page for the browser tab the redirect lands in. */
std::string RedirectPage(bool ok) {
    return std::string("<!doctype html><meta charset=utf-8><title>svcpp</title><p>") +
           (ok ? "Signed in. You can close this window and return to the game."
               : "Sign-in did not complete. You can close this window.") +
           "</p>";
}

}  // namespace

// ---- Authorize -------------------------------------------------------------------------------------

void Client::Authorize(AuthorizationArgs args, ClientAuthorizationCallback &&cb) {
    auto op = AuthorizeOperation::Begin(operations_, std::move(cb));
    const uint64_t clientId = scopes::EffectiveClientId(args, GetApplicationId());
    if (clientId == 0) return op->Fail(Validation(kNoApplicationId));
    const std::string state = args.state.value_or(pkce::RandomToken(32));  // CSRF protection from a CSPRNG
    logger_.AddSecret(state);

    OnIo([this, op, args = std::move(args), clientId, state](Net &net) {
        // One flow at a time: a new Authorize supersedes the pending one.
        if (net.authorize)
            net.authorize->Complete(FailureResult(ErrorType::Aborted, "superseded by a new Authorize"), "", "");
        if (net.listener) net.listener->Stop();
        net.listener.reset();

        std::string redirectUri;
        if (args.customSchemeParam) {
            // Mobile-style redirect: the host receives it and hands it to HandleAuthorizeRedirect.
            redirectUri = *args.customSchemeParam + ":/authorize/callback";
        } else {
            std::string error;
            net.listener = auth::LoopbackListener::Start(
                net.io, "/callback", [this, &net](const std::string &target) { return CompleteAuthorize(net, target); },
                error);
            if (!net.listener) return op->Fail(FailureResult(ErrorType::NetworkError, error));
            redirectUri = "http://127.0.0.1:" + std::to_string(net.listener->Port()) + "/callback";
        }
        net.authorize = op;
        net.authorizeState = state;
        net.authorizeRedirectUri = redirectUri;

        net::FormFields query{{"response_type", "code"},
                              {"client_id", std::to_string(clientId)},
                              {"redirect_uri", redirectUri},
                              {"scope", args.scopes.empty() ? scopes::kCommunication : args.scopes},
                              {"state", state}};
        if (args.codeChallenge) {
            query.emplace_back("code_challenge", args.codeChallenge->challenge);
            query.emplace_back("code_challenge_method", "S256");
        }
        if (args.nonce) query.emplace_back("nonce", *args.nonce);
        if (args.integrationType)
            query.emplace_back("integration_type", std::to_string(static_cast<int32_t>(*args.integrationType)));
        const std::string url = webBase_ + "/oauth2/authorize?" + net::EncodeForm(query);

        if (authorizeUrl_.IsSet()) {
            authorizeUrl_.Post(url);
            logger_.Log(LoggingSeverity::Info, "authorize: the host opens the authorize page");
        } else if (auth::OpenInBrowser(url)) {
            logger_.Log(LoggingSeverity::Info, "authorize: opened the authorize page in the system browser");
        } else {
            logger_.Log(LoggingSeverity::Warning,
                        "authorize: no browser could be started and no AuthorizeUrl callback is set");
        }
    });
}

std::string Client::CompleteAuthorize(Net &net, const std::string &target) {
    if (!net.authorize) return RedirectPage(false);
    auto query = net::ParseQuery(target);
    auto op = std::move(net.authorize);
    net.authorize.reset();
    if (net.listener) net.listener->Stop();
    net.listener.reset();

    if (query["state"] != net.authorizeState) {
        op->Complete(
            FailureResult(ErrorType::AuthorizationFailed, "the redirect's state does not match (possible CSRF)"), "",
            "");
        return RedirectPage(false);
    }
    if (!query["error"].empty()) {
        const std::string description = query["error_description"];
        op->Complete(FailureResult(ErrorType::AuthorizationFailed,
                                   query["error"] + (description.empty() ? "" : ": " + description)),
                     "", "");
        return RedirectPage(false);
    }
    const std::string code = query["code"];
    if (code.empty()) {
        op->Complete(FailureResult(ErrorType::AuthorizationFailed, "the redirect has no code"), "", "");
        return RedirectPage(false);
    }
    logger_.AddSecret(code);
    logger_.Log(LoggingSeverity::Info, "authorize: authorization code received");
    op->Complete(ClientResult{}, code, net.authorizeRedirectUri);
    return RedirectPage(true);
}

void Client::HandleAuthorizeRedirect(std::string url) {
    OnIo([this, url = std::move(url)](Net &net) {
        if (!net.authorize || net.listener) return;  // no custom-scheme flow is waiting
        if (url.rfind(net.authorizeRedirectUri, 0) != 0) return;
        CompleteAuthorize(net, url);
    });
}

void Client::AbortAuthorize() {
    OnIo([](Net &net) {
        if (net.listener) net.listener->Stop();
        net.listener.reset();
        if (auto op = std::move(net.authorize))
            op->Complete(FailureResult(ErrorType::Aborted, "AbortAuthorize was called"), "", "");
        net.authorize.reset();
    });
}

void Client::SetAuthorizeUrlCallback(ClientAuthorizeUrlCallback &&cb) { authorizeUrl_.Set(std::move(cb)); }

// ---- Token requests ----------------------------------------------------------------------------------

void Client::RequestTokens(uint64_t applicationId, bool oauth,
                           const std::function<net::HttpRequest(uint64_t appId)> &build,
                           ClientTokenExchangeCallback &&cb) {
    auto op = TokenOperation::Begin(operations_, std::move(cb));
    const uint64_t appId = AppIdFor(applicationId);
    if (!appId) return op->Fail(Validation(kNoApplicationId));
    Rest(build(appId), [this, op, oauth](net::HttpResponse response) {
        auth::TokenGrant grant;
        ClientResult result = auth::ReadTokenGrant(response, oauth, grant);
        logger_.AddSecret(grant.accessToken);
        logger_.AddSecret(grant.refreshToken);
        if (result.type != ErrorType::None)
            logger_.Log(LoggingSeverity::Warning, "token request failed: " + ToString(result));
        op->Complete(std::move(result), grant.accessToken, grant.refreshToken, grant.tokenType, grant.expiresIn,
                     grant.scopes);
    });
}

void Client::GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                      ClientTokenExchangeCallback &&cb) {
    logger_.AddSecret(code);
    logger_.AddSecret(codeVerifier);
    RequestTokens(
        applicationId, true,
        [&](uint64_t appId) {
            return auth::CodeExchangeRequest(apiBase_, appId, code, codeVerifier, redirectUri, std::nullopt);
        },
        std::move(cb));
}

void Client::GetTokenFromProvisionalMerge(uint64_t applicationId, std::string code, std::string codeVerifier,
                                          std::string redirectUri, AuthenticationExternalAuthType type,
                                          std::string externalAuthToken, ClientTokenExchangeCallback &&cb) {
    logger_.AddSecret(code);
    logger_.AddSecret(codeVerifier);
    logger_.AddSecret(externalAuthToken);
    RequestTokens(
        applicationId, true,
        [&](uint64_t appId) {
            return auth::CodeExchangeRequest(apiBase_, appId, code, codeVerifier, redirectUri,
                                             auth::ExternalAuth{type, externalAuthToken});
        },
        std::move(cb));
}

void Client::GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType type,
                                 std::string externalAuthToken, ClientTokenExchangeCallback &&cb) {
    logger_.AddSecret(externalAuthToken);
    RequestTokens(
        applicationId, false,
        [&](uint64_t appId) {
            return auth::ProvisionalTokenRequest(apiBase_, appId, {type, externalAuthToken});
        },
        std::move(cb));
}

void Client::RefreshToken(uint64_t applicationId, std::string refreshToken, ClientTokenExchangeCallback &&cb) {
    logger_.AddSecret(refreshToken);
    RequestTokens(
        applicationId, true, [&](uint64_t appId) { return auth::RefreshRequest(apiBase_, appId, refreshToken); },
        std::move(cb));
}

void Client::ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                                ClientExchangeChildTokenCallback &&cb) {
    logger_.AddSecret(parentApplicationToken);
    using ChildOperation =
        Operation<void(const ClientResult &, std::string_view, AuthorizationTokenType, int32_t, std::string_view)>;
    auto op = ChildOperation::Begin(operations_, std::move(cb));
    if (!childApplicationId) return op->Fail(Validation("childApplicationId is 0"));
    Rest(auth::ChildTokenRequest(apiBase_, parentApplicationToken, childApplicationId),
         [this, op](net::HttpResponse response) {
             auth::TokenGrant grant;
             ClientResult result = auth::ReadTokenGrant(response, false, grant);
             logger_.AddSecret(grant.accessToken);
             op->Complete(std::move(result), grant.accessToken, grant.tokenType, grant.expiresIn, grant.scopes);
         });
}

// ---- Requests answered by a plain ClientResult ---------------------------------------------------------

void Client::RevokeToken(uint64_t applicationId, std::string token, ClientRevokeTokenCallback &&cb) {
    logger_.AddSecret(token);
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    const uint64_t appId = AppIdFor(applicationId);
    if (!appId) return op->Fail(Validation(kNoApplicationId));
    Rest(auth::RevokeRequest(apiBase_, appId, token),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromOAuthHttp(response)); });
}

void Client::UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType type,
                                           std::string externalAuthToken,
                                           ClientUnmergeIntoProvisionalAccountCallback &&cb) {
    logger_.AddSecret(externalAuthToken);
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    const uint64_t appId = AppIdFor(applicationId);
    if (!appId) return op->Fail(Validation(kNoApplicationId));
    Rest(auth::UnmergeRequest(apiBase_, appId, {type, externalAuthToken}),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void Client::UpdateProvisionalAccountDisplayName(std::string name,
                                                 ClientUpdateProvisionalAccountDisplayNameCallback &&cb) {
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    const std::string token = CurrentToken();
    if (token.empty()) return op->Fail(Validation(kNoTokenMessage));
    if (name.empty()) return op->Fail(Validation("the display name must be 1-32 characters"));
    Rest(auth::DisplayNameRequest(apiBase_, token, name),
         [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

// ---- The client's own token -----------------------------------------------------------------------------

std::string Client::CurrentToken() const {
    std::lock_guard lock(tokenMutex_);
    return token_;
}

bool Client::IsAuthenticated() const { return !CurrentToken().empty(); }

void Client::UpdateToken(AuthorizationTokenType tokenType, std::string token, ClientUpdateTokenCallback &&cb) {
    logger_.AddSecret(token);
    auto op = ResultOperation::Begin(operations_, std::move(cb));
    if (tokenType != AuthorizationTokenType::Bearer) return op->Fail(Validation("only Bearer tokens are accepted"));
    if (token.empty()) return op->Fail(Validation("the token is empty"));
    uint64_t generation = 0;
    {
        std::lock_guard lock(tokenMutex_);
        token_ = token;
        generation = ++tokenGeneration_;
    }
    logger_.Log(LoggingSeverity::Info, "token updated");
    OnIo([this, op, token, generation](Net &net) {
        if (net.session) net.session->SetToken(token);  // used by the next Identify or Resume
        op->Complete(ClientResult{});
        ScheduleTokenExpiry(generation, token);
    });
}

void Client::FetchCurrentUser(AuthorizationTokenType tokenType, std::string token,
                              ClientFetchCurrentUserCallback &&cb) {
    logger_.AddSecret(token);
    using FetchOperation = Operation<void(const ClientResult &, uint64_t, std::string_view)>;
    auto op = FetchOperation::Begin(operations_, std::move(cb));
    if (tokenType != AuthorizationTokenType::Bearer) return op->Fail(Validation("only Bearer tokens are accepted"));
    Rest(auth::CurrentUserRequest(apiBase_, token), [op](net::HttpResponse response) {
        UserRecord user;
        ClientResult result = net::ReadJson(response, user, ParseUser);
        op->Complete(std::move(result), user.id, user.username);
    });
}

}  // namespace svcpp::core
