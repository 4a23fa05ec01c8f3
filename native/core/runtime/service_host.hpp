// What an area's operations need from the client that hosts them (docs/adding-an-sdk-method.md): the token, the one
// not-ready answer, REST, jobs and timers on the I/O thread, the base URLs and application id, the registry of
// in-flight operations and the logger. The client
// implements it; an area service holds a reference and never sees the client, its network half or another area's
// operations — so an operation can be read, moved or tested with its area alone.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "generated/values.hpp"
#include "log/logger.hpp"
#include "net/http.hpp"
#include "net/route.hpp"
#include "runtime/operations.hpp"

namespace svcpp::core::net {
class ClientExecutor;  // net/client_executor.hpp
}

namespace svcpp::core {

/** The ValidationError of a call that needs the token of UpdateToken. */
inline constexpr const char *kNoTokenMessage = "no token: call UpdateToken first";

class ServiceHost {
  public:
    /** UpdateToken's access token (empty: none yet). */
    virtual std::string Token() const = 0;
    /** The ClientNotReady / no-token failure of a call that needs a Ready session, or nullopt when it may go on. */
    virtual std::optional<ClientResult> NotReady() const = 0;
    /** Sends a REST request on the I/O thread; done runs there (not at all once the client is torn down). */
    virtual void Rest(net::HttpRequest request, net::HttpDone done) = 0;
    /** Runs fn on the I/O thread (not at all once the client is torn down). */
    virtual void Post(std::function<void()> fn) = 0;
    /** Runs fn on the I/O thread after `delay` (not at all once the client is torn down). */
    virtual void RunAfter(std::chrono::milliseconds delay, std::function<void()> fn) = 0;
    /** The client's executor on its I/O thread, for the I/O objects an area owns there (a loopback listener). */
    virtual const net::ClientExecutor &IoExecutor() = 0;
    /** The HTTP API's base URL (ClientCreateOptions::ApiBase or the local platform's). */
    virtual const std::string &ApiBase() const = 0;
    /** The web base URL (the OAuth2 authorize page). */
    virtual const std::string &WebBase() const = 0;
    /** SetApplicationId's (0: none). */
    virtual uint64_t GetApplicationId() const = 0;
    virtual Operations &Ops() = 0;
    virtual Logger &Log() = 0;

    /** The no-token failure of a call that needs only the token of UpdateToken, or nullopt when it may go on. */
    std::optional<ClientResult> NoToken() const;
    /** A request of `route` (ids fill its placeholders) with the bearer token; `query` starts with its '?'. */
    net::HttpRequest Request(const net::Route &route, std::initializer_list<uint64_t> ids = {},
                             std::string_view query = {}) const;
    /** Request with a JSON body. */
    net::HttpRequest JsonRequest(const net::Route &route, std::initializer_list<uint64_t> ids,
                                 const nlohmann::json &body) const;

  protected:
    ~ServiceHost() = default;
};

}  // namespace svcpp::core
