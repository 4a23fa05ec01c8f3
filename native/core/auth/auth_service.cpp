#include "auth/auth_service.hpp"

#include <nlohmann/json.hpp>

#include "auth/browser.hpp"
#include "auth/loopback_listener.hpp"
#include "auth/pkce.hpp"
#include "auth/scopes.hpp"
#include "net/form.hpp"
#include "net/results.hpp"
#include "users/user_cache.hpp"
#include "values/client_result.hpp"

namespace svcpp::core::auth {

namespace {

using TokenOperation = Operation<void(const ClientResult &, std::string_view, std::string_view, AuthorizationTokenType,
                                      int32_t, std::string_view)>;
using ResultOperation = Operation<void(const ClientResult &)>;

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

void AuthService::Authorize(AuthorizationArgs args, ClientAuthorizationCallback &&cb) {
    auto op = AuthorizeOperation::Begin(host_.Ops(), std::move(cb));
    const uint64_t clientId = scopes::EffectiveClientId(args, host_.GetApplicationId());
    if (clientId == 0) return op->Fail(Validation(kNoApplicationId));
    const std::string state = args.state.value_or(pkce::RandomToken(32));  // CSRF protection from a CSPRNG
    host_.Log().AddSecret(state);

    host_.Post([this, op, args = std::move(args), clientId, state] {
        // One flow at a time: a new Authorize supersedes the pending one.
        if (authorize_)
            authorize_->Complete(FailureResult(ErrorType::Aborted, "superseded by a new Authorize"), "", "");
        StopListener();

        std::string redirectUri;
        if (args.customSchemeParam) {
            // Mobile-style redirect: the host receives it and hands it to HandleAuthorizeRedirect.
            redirectUri = *args.customSchemeParam + ":/authorize/callback";
        } else {
            std::string error;
            listener_ = LoopbackListener::Start(
                host_.IoExecutor(), "/callback",
                [this](const std::string &target) { return CompleteAuthorize(target); }, error);
            if (!listener_) return op->Fail(FailureResult(ErrorType::NetworkError, error));
            redirectUri = "http://127.0.0.1:" + std::to_string(listener_->Port()) + "/callback";
        }
        authorize_ = op;
        authorizeState_ = state;
        authorizeRedirectUri_ = redirectUri;

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
        const std::string url = host_.WebBase() + "/oauth2/authorize?" + net::EncodeForm(query);

        if (authorizeUrl_.IsSet()) {
            authorizeUrl_.Post(url);
            host_.Log().Log(LoggingSeverity::Info, "authorize: the host opens the authorize page");
        } else if (OpenInBrowser(url)) {
            host_.Log().Log(LoggingSeverity::Info, "authorize: opened the authorize page in the system browser");
        } else {
            host_.Log().Log(LoggingSeverity::Warning,
                            "authorize: no browser could be started and no AuthorizeUrl callback is set");
        }
    });
}

std::string AuthService::CompleteAuthorize(const std::string &target) {
    if (!authorize_) return RedirectPage(false);
    auto query = net::ParseQuery(target);
    auto op = std::move(authorize_);
    authorize_.reset();
    StopListener();

    if (query["state"] != authorizeState_) {
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
    host_.Log().AddSecret(code);
    host_.Log().Log(LoggingSeverity::Info, "authorize: authorization code received");
    op->Complete(ClientResult{}, code, authorizeRedirectUri_);
    return RedirectPage(true);
}

void AuthService::HandleAuthorizeRedirect(std::string url) {
    host_.Post([this, url = std::move(url)] {
        if (!authorize_ || listener_) return;  // no custom-scheme flow is waiting
        if (url.rfind(authorizeRedirectUri_, 0) != 0) return;
        CompleteAuthorize(url);
    });
}

void AuthService::AbortAuthorize() {
    host_.Post([this] {
        StopListener();
        if (auto op = std::move(authorize_))
            op->Complete(FailureResult(ErrorType::Aborted, "AbortAuthorize was called"), "", "");
        authorize_.reset();
    });
}

void AuthService::StopListener() {
    if (listener_) listener_->Stop();
    listener_.reset();
}

void AuthService::ShutdownOnIo() { StopListener(); }

AuthService::~AuthService() = default;

// ---- Token requests ----------------------------------------------------------------------------------

void AuthService::RequestTokens(uint64_t applicationId, GrantEndpoint endpoint,
                                const std::function<net::HttpRequest(uint64_t appId)> &build,
                                ClientTokenExchangeCallback &&cb) {
    auto op = TokenOperation::Begin(host_.Ops(), std::move(cb));
    const uint64_t appId = AppIdFor(applicationId);
    if (!appId) return op->Fail(Validation(kNoApplicationId));
    host_.Rest(build(appId), [this, op, endpoint](net::HttpResponse response) {
        TokenGrant grant;
        ClientResult result = ReadTokenGrant(response, endpoint, grant);
        host_.Log().AddSecret(grant.accessToken);
        host_.Log().AddSecret(grant.refreshToken);
        if (result.type != ErrorType::None)
            host_.Log().Log(LoggingSeverity::Warning, "token request failed: " + ToString(result));
        op->Complete(std::move(result), grant.accessToken, grant.refreshToken, grant.tokenType, grant.expiresIn,
                     grant.scopes);
    });
}

void AuthService::GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                           ClientTokenExchangeCallback &&cb) {
    host_.Log().AddSecret(code);
    host_.Log().AddSecret(codeVerifier);
    RequestTokens(
        applicationId, GrantEndpoint::OAuth2,
        [&](uint64_t appId) {
            return CodeExchangeRequest(host_.ApiBase(), appId, code, codeVerifier, redirectUri, std::nullopt);
        },
        std::move(cb));
}

void AuthService::GetTokenFromProvisionalMerge(uint64_t applicationId, std::string code, std::string codeVerifier,
                                               std::string redirectUri, AuthenticationExternalAuthType type,
                                               std::string externalAuthToken, ClientTokenExchangeCallback &&cb) {
    host_.Log().AddSecret(code);
    host_.Log().AddSecret(codeVerifier);
    host_.Log().AddSecret(externalAuthToken);
    RequestTokens(
        applicationId, GrantEndpoint::OAuth2,
        [&](uint64_t appId) {
            return CodeExchangeRequest(host_.ApiBase(), appId, code, codeVerifier, redirectUri,
                                       ExternalAuth{type, externalAuthToken});
        },
        std::move(cb));
}

void AuthService::GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType type,
                                      std::string externalAuthToken, ClientTokenExchangeCallback &&cb) {
    host_.Log().AddSecret(externalAuthToken);
    RequestTokens(
        applicationId, GrantEndpoint::PartnerSdk,
        [&](uint64_t appId) {
            return ProvisionalTokenRequest(host_.ApiBase(), appId, {type, externalAuthToken});
        },
        std::move(cb));
}

void AuthService::RefreshToken(uint64_t applicationId, std::string refreshToken, ClientTokenExchangeCallback &&cb) {
    host_.Log().AddSecret(refreshToken);
    RequestTokens(
        applicationId, GrantEndpoint::OAuth2,
        [&](uint64_t appId) { return RefreshRequest(host_.ApiBase(), appId, refreshToken); }, std::move(cb));
}

void AuthService::ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                                     ClientExchangeChildTokenCallback &&cb) {
    host_.Log().AddSecret(parentApplicationToken);
    using ChildOperation =
        Operation<void(const ClientResult &, std::string_view, AuthorizationTokenType, int32_t, std::string_view)>;
    auto op = ChildOperation::Begin(host_.Ops(), std::move(cb));
    if (!childApplicationId) return op->Fail(Validation("childApplicationId is 0"));
    host_.Rest(ChildTokenRequest(host_.ApiBase(), parentApplicationToken, childApplicationId),
               [this, op](net::HttpResponse response) {
                   TokenGrant grant;
                   ClientResult result = ReadTokenGrant(response, GrantEndpoint::PartnerSdk, grant);
                   host_.Log().AddSecret(grant.accessToken);
                   op->Complete(std::move(result), grant.accessToken, grant.tokenType, grant.expiresIn, grant.scopes);
               });
}

// ---- Requests answered by a plain ClientResult ---------------------------------------------------------

void AuthService::RevokeToken(uint64_t applicationId, std::string token, ClientRevokeTokenCallback &&cb) {
    host_.Log().AddSecret(token);
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    const uint64_t appId = AppIdFor(applicationId);
    if (!appId) return op->Fail(Validation(kNoApplicationId));
    host_.Rest(RevokeRequest(host_.ApiBase(), appId, token),
               [op](net::HttpResponse response) { op->Complete(net::ResultFromOAuthHttp(response)); });
}

void AuthService::UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType type,
                                                std::string externalAuthToken,
                                                ClientUnmergeIntoProvisionalAccountCallback &&cb) {
    host_.Log().AddSecret(externalAuthToken);
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    const uint64_t appId = AppIdFor(applicationId);
    if (!appId) return op->Fail(Validation(kNoApplicationId));
    host_.Rest(UnmergeRequest(host_.ApiBase(), appId, {type, externalAuthToken}),
               [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void AuthService::UpdateProvisionalAccountDisplayName(std::string name,
                                                      ClientUpdateProvisionalAccountDisplayNameCallback &&cb) {
    auto op = ResultOperation::Begin(host_.Ops(), std::move(cb));
    const std::string token = host_.Token();
    if (token.empty()) return op->Fail(Validation(kNoTokenMessage));
    if (name.empty()) return op->Fail(Validation("the display name must be 1-32 characters"));
    host_.Rest(DisplayNameRequest(host_.ApiBase(), token, name),
               [op](net::HttpResponse response) { op->Complete(net::ResultFromHttp(response)); });
}

void AuthService::FetchCurrentUser(AuthorizationTokenType tokenType, std::string token,
                                   ClientFetchCurrentUserCallback &&cb) {
    host_.Log().AddSecret(token);
    using FetchOperation = Operation<void(const ClientResult &, uint64_t, std::string_view)>;
    auto op = FetchOperation::Begin(host_.Ops(), std::move(cb));
    if (tokenType != AuthorizationTokenType::Bearer) return op->Fail(Validation("only Bearer tokens are accepted"));
    host_.Rest(CurrentUserRequest(host_.ApiBase(), token), [op](net::HttpResponse response) {
        UserRecord user;
        ClientResult result = net::ReadJson(response, user, ParseUser);
        op->Complete(std::move(result), user.id, user.username);
    });
}

AuthorizationCodeVerifier AuthService::CreateAuthorizationCodeVerifier() { return pkce::CreateVerifier(); }

}  // namespace svcpp::core::auth
