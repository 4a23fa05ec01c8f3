// The authentication area (idl/client/auth.mjs): OAuth2 authorization with PKCE through the browser and a loopback
// redirect (or the host's custom scheme), the token endpoint's exchanges, provisional accounts and child tokens.
// Public-client flows only; every secret that passes through here is registered with the logger's redactor before
// anything can log it. The client's own token (UpdateToken, its expiry) is the client's, not this area's.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "auth/requests.hpp"
#include "generated/callbacks.hpp"
#include "runtime/event_slot.hpp"
#include "runtime/service_host.hpp"

namespace svcpp::core::auth {

class LoopbackListener;

class AuthService {
  public:
    AuthService(CallbackQueue &queue, ServiceHost &host) : host_(host), authorizeUrl_(queue) {}
    ~AuthService();

    // Operations (the C ABI's Client_<Name> of this area).
    AuthorizationCodeVerifier CreateAuthorizationCodeVerifier();
    void Authorize(AuthorizationArgs args, ClientAuthorizationCallback &&cb);
    void AbortAuthorize();
    void SetAuthorizeUrlCallback(ClientAuthorizeUrlCallback &&cb) { authorizeUrl_.Set(std::move(cb)); }
    void HandleAuthorizeRedirect(std::string url);
    void GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                  ClientTokenExchangeCallback &&cb);
    void GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType type, std::string externalAuthToken,
                             ClientTokenExchangeCallback &&cb);
    void GetTokenFromProvisionalMerge(uint64_t applicationId, std::string code, std::string codeVerifier,
                                      std::string redirectUri, AuthenticationExternalAuthType type,
                                      std::string externalAuthToken, ClientTokenExchangeCallback &&cb);
    void RefreshToken(uint64_t applicationId, std::string refreshToken, ClientTokenExchangeCallback &&cb);
    void RevokeToken(uint64_t applicationId, std::string token, ClientRevokeTokenCallback &&cb);
    void ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                            ClientExchangeChildTokenCallback &&cb);
    void UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType type,
                                       std::string externalAuthToken, ClientUnmergeIntoProvisionalAccountCallback &&cb);
    void UpdateProvisionalAccountDisplayName(std::string name, ClientUpdateProvisionalAccountDisplayNameCallback &&cb);
    void FetchCurrentUser(AuthorizationTokenType tokenType, std::string token, ClientFetchCurrentUserCallback &&cb);

    /** ResetCallbacks / Drop: the AuthorizeUrl registration ends. */
    void ReleaseRegistrations() { authorizeUrl_.Set({}); }
    /** Drop, on the I/O thread: the loopback listener stops. */
    void ShutdownOnIo();

  private:
    using AuthorizeOperation = Operation<void(const ClientResult &, std::string_view, std::string_view)>;

    /** The application id of an auth call: the argument, else SetApplicationId's; 0 when neither is set. */
    uint64_t AppIdFor(uint64_t applicationId) const { return applicationId ? applicationId : host_.GetApplicationId(); }
    /**
     * A token request whose answer completes a TokenExchangeCallback operation. `build` makes the request for
     * the effective application id (AppIdFor); without one the operation fails with ValidationError.
     */
    void RequestTokens(uint64_t applicationId, GrantEndpoint endpoint,
                       const std::function<net::HttpRequest(uint64_t appId)> &build, ClientTokenExchangeCallback &&cb);
    /** The redirect arrived (loopback or HandleAuthorizeRedirect): completes the pending flow; the page to show. */
    std::string CompleteAuthorize(const std::string &target);
    /** The pending flow's listener, if any, stops and is forgotten (I/O thread). */
    void StopListener();

    ServiceHost &host_;
    EventSlot<void(std::string_view)> authorizeUrl_;
    // The pending flow, at most one (I/O thread only).
    std::shared_ptr<AuthorizeOperation> authorize_;
    std::shared_ptr<LoopbackListener> listener_;
    std::string authorizeState_;
    std::string authorizeRedirectUri_;
};

}  // namespace svcpp::core::auth
