// HTTP(S) for the core: requests and responses as plain values, a keep-alive client and the REST layer
// that honours the platform's rate limits. Boost.Beast stays inside net/*.cpp; this header is light.
//
// Threading: HttpClient and RestClient live on the client's I/O thread. Send() may be called from any
// thread (it posts to the I/O thread); completions run on the I/O thread.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace svcpp::core::net {
class ClientExecutor;  // net/client_executor.hpp: the executor of one client's I/O objects
}

namespace svcpp::core::net {

/** An absolute http(s)/ws(s) URL split for connecting. */
struct Url {
    std::string scheme;  // "http", "https", "ws", "wss" (lower case)
    std::string host;    // without brackets for IPv6
    uint16_t port = 0;   // explicit or the scheme's default
    std::string target;  // path + query, at least "/"

    bool Tls() const { return scheme == "https" || scheme == "wss"; }
    /** nullopt when not an absolute URL of one of the four schemes. */
    static std::optional<Url> Parse(std::string_view text);
};

/**
 * Why a connection could not be used. The client hands it to the host when connecting fails (C ABI
 * ConnectionFailureReason), so each kind maps to something a person can act on.
 */
enum class NetFailure {
    None,
    InvalidUrl,       // not an absolute URL of a scheme we speak
    NameNotResolved,  // DNS: the host name has no address
    Refused,          // nothing listens there (TCP RST)
    TimedOut,         // no answer in time (connect, TLS, request or handshake)
    TlsVerification,  // the peer's certificate chain or name did not verify
    Tls,              // another TLS failure (protocol, handshake, set-up)
    Transfer,         // the connection broke while in use, or the peer spoke no HTTP/WebSocket
    ShutDown,         // the client is shutting down
};

/**
 * Whether trying again later may succeed: a certificate that does not verify, a TLS set-up failure or a URL we cannot
 * speak stays so however often it is retried. The one rule behind every `retryable` of a transport failure.
 */
constexpr bool IsTransient(NetFailure kind) {
    return kind != NetFailure::TlsVerification && kind != NetFailure::Tls && kind != NetFailure::InvalidUrl;
}

/** Trust settings shared by every connection of a client. Verification is always on. */
struct TlsOptions {
    std::string caFile;  // extra trusted CAs (PEM); the system roots are trusted as well
};

struct HttpRequest {
    std::string method = "GET";
    std::string url;  // absolute
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;  // sent with Content-Length when non-empty or for POST/PUT/PATCH
    /**
     * Rate-limit route key, e.g. "POST /partner-sdk/token" or "GET /users/:id" (major parameters kept, ids
     * replaced). Requests with the same key share the bucket the server names in X-RateLimit-Bucket.
     */
    std::string route;
    /**
     * Asked on the I/O thread right before the request is written (after connecting, and again before a retry on a
     * fresh connection); false completes it unsent, with HttpResponse::held. RestClient uses it so that a request
     * dispatched before a rate-limit wait was told is not written into that wait. Empty: always written.
     */
    std::function<bool()> clearToWrite;
};

struct HttpResponse {
    int status = 0;  // 0 = no HTTP response (see networkError)
    std::string body;
    std::map<std::string, std::string> headers;  // names lower-cased
    std::string networkError;                    // DNS/TCP/TLS failure, timeout or truncated response (status == 0)
    NetFailure failure = NetFailure::None;       // its kind (None with an HTTP status)
    bool held = false;  // not sent: HttpRequest::clearToWrite said no (status 0, nothing reached the server)

    /** Header value or "". */
    std::string Header(const std::string &lowerName) const {
        auto it = headers.find(lowerName);
        return it == headers.end() ? std::string() : it->second;
    }
};

using HttpDone = std::function<void(HttpResponse)>;

struct PooledConnection;  // net/pooled_connection.hpp
struct TlsClientContext;  // net/tls_context.hpp

/**
 * An idle keep-alive connection to the origin of a ws(s):// URL — http(s) with the same host and port — or null. The
 * WebSocket factory sends its upgrade request on it instead of opening a new connection. I/O thread only.
 */
using IdleConnectionSource = std::function<std::shared_ptr<PooledConnection>(const Url &wsUrl)>;

/**
 * Keep-alive HTTP/1.1 client: one idle connection pool per origin (scheme, host, port); TLS with SNI,
 * certificate chain and host name verification (system roots + TlsOptions::caFile). Each request gets the
 * timeout current when it starts; on timeout the connection is closed and the request fails with
 * networkError "timed out" — never a success. A request that fails on a reused idle connection before any
 * response byte is retried once on a fresh connection (the server may have closed it meanwhile). A request that finds
 * no idle connection while a TLS connection to its origin is still in its handshake waits for that connection (one
 * such follower per connection) instead of paying a second handshake in parallel.
 */
class HttpClient {
  public:
    HttpClient(const net::ClientExecutor &io, TlsOptions tls, std::function<int32_t()> timeoutMs);
    /** With a TLS context shared with the client's WebSocket factory: the trust store is loaded once per client. */
    HttpClient(const net::ClientExecutor &io, const TlsClientContext &tls, std::function<int32_t()> timeoutMs);
    ~HttpClient();
    HttpClient(const HttpClient &) = delete;
    HttpClient &operator=(const HttpClient &) = delete;

    void Send(HttpRequest request, HttpDone done);
    /** Closes every connection; pending requests complete with networkError "shut down". I/O thread only. */
    void Shutdown();
    /**
     * Hands idle connections of this pool to a WebSocket factory (the gateway discovery's connection carries the
     * gateway's upgrade). Null once this client is gone.
     */
    IdleConnectionSource IdleConnections() const;

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

/** How long the REST layer keeps retrying a 429 by itself before reporting it (seconds). */
inline constexpr double kMaxAutomaticRetryAfterSeconds = 60.0;

/**
 * REST layer over HttpClient: rate-limit buckets learned from X-RateLimit-Bucket / -Remaining / -Reset-After
 * (per route key), requests of an exhausted bucket wait until it resets, a global 429 pauses everything.
 * A 429 is retried after its retry_after (body, else Retry-After) — never dropped — as long as the wait
 * is at most kMaxAutomaticRetryAfterSeconds; a longer one is completed with the 429 response. Requests of
 * one bucket are sent in order.
 */
class RestClient {
  public:
    using LogFn = std::function<void(std::string)>;  // verbose diagnostics (never contains headers or bodies)
    RestClient(const net::ClientExecutor &io, HttpClient &http, LogFn log);
    ~RestClient();
    RestClient(const RestClient &) = delete;
    RestClient &operator=(const RestClient &) = delete;

    void Send(HttpRequest request, HttpDone done);
    /** Completes every waiting request with networkError "shut down". I/O thread only. */
    void Shutdown();

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace svcpp::core::net
