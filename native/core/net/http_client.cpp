// HttpClient: HTTP/1.1 over Beast with a keep-alive pool per origin. Each request is an Exchange that owns
// its connection while it runs and hands it back to the pool when the server lets it live on.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <set>

#include "net/client_executor.hpp"
#include "net/connect_failure.hpp"
#include "net/http.hpp"
#include "net/http_headers.hpp"
#include "net/pooled_connection.hpp"
#include "net/resolve.hpp"
#include "net/tls_context.hpp"
#include "net/transport_stream.hpp"

namespace svcpp::core::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr size_t kMaxIdlePerOrigin = 4;
constexpr uint64_t kMaxResponseBodyBytes = 8 * 1024 * 1024;
constexpr const char *kShutDown = "shut down";

HttpResponse NetworkError(NetFailure kind, std::string description) {
    HttpResponse response;
    response.networkError = std::move(description);
    response.failure = kind;
    return response;
}

std::string Lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string OriginOf(const Url &url) { return url.scheme + "://" + url.host + ":" + std::to_string(url.port); }

http::request<http::string_body> BuildRequest(const HttpRequest &request, const Url &url) {
    http::request<http::string_body> out;
    const http::verb verb = http::string_to_verb(request.method);
    if (verb == http::verb::unknown) {
        out.method_string(request.method);
    } else {
        out.method(verb);
    }
    out.target(url.target);
    out.version(11);
    for (const auto &[name, value] : request.headers) out.insert(name, value);
    if (out.find(http::field::host) == out.end()) out.set(http::field::host, HostHeaderValue(url));
    if (out.find(http::field::user_agent) == out.end()) out.set(http::field::user_agent, UserAgentValue());
    const bool bodyMethod = verb == http::verb::post || verb == http::verb::put || verb == http::verb::patch;
    if (bodyMethod || !request.body.empty()) {
        out.body() = request.body;
        out.content_length(request.body.size());
    }
    return out;
}

HttpResponse ToResponse(http::response<http::string_body> &&message) {
    HttpResponse response;
    response.status = static_cast<int>(message.result_int());
    for (const auto &field : message) {
        auto [it, inserted] = response.headers.emplace(Lower(field.name_string()), std::string(field.value()));
        // Repeated fields fold into one comma-separated value (RFC 9110 §5.3).
        if (!inserted) it->second += ", " + std::string(field.value());
    }
    response.body = std::move(message.body());
    return response;
}

}  // namespace

struct HttpClient::Impl : std::enable_shared_from_this<HttpClient::Impl> {
    class Exchange;

    Impl(const net::ClientExecutor &io, TlsClientContext tls, std::function<int32_t()> timeoutMs)
        : io(io), tls(std::move(tls)), timeoutMs(std::move(timeoutMs)) {}

    void Start(HttpRequest request, HttpDone done);
    void Shutdown();

    /** The most recently used idle connection to origin, or null. */
    std::shared_ptr<PooledConnection> TakeIdle(const std::string &origin);
    /** The exchange whose new TLS connection to origin is still in its handshake and that no request follows yet. */
    std::shared_ptr<Exchange> TakeOpening(const std::string &origin);
    void ReturnIdle(const std::string &origin, std::shared_ptr<PooledConnection> connection);

    net::ClientExecutor io;
    const TlsClientContext tls;
    const std::function<int32_t()> timeoutMs;
    std::map<std::string, std::vector<std::shared_ptr<PooledConnection>>> idle;
    std::set<std::shared_ptr<Exchange>> active;
    // Per origin, a TLS connection being opened that one more request may follow: a request that finds no idle
    // connection waits for that one (usually a moment) instead of paying a second handshake — on both sides — in
    // parallel. This is how connect() after UpdateToken sends GET /gateway on the connection of the token check.
    std::map<std::string, std::weak_ptr<Exchange>> opening;
    bool shutDown = false;
};

/** One request from the first byte to `done`: connect (or reuse), write, read, with one deadline. */
class HttpClient::Impl::Exchange : public std::enable_shared_from_this<Exchange> {
  public:
    Exchange(const net::ClientExecutor &io, std::weak_ptr<Impl> client, Url url,
             http::request<http::string_body> request, std::function<bool()> clearToWrite, HttpDone done)
        : client_(std::move(client)),
          url_(std::move(url)),
          origin_(OriginOf(url_)),
          request_(std::move(request)),
          clearToWrite_(std::move(clearToWrite)),
          done_(std::move(done)),
          resolver_(io),
          deadline_(io) {}

    void Start(std::chrono::milliseconds timeout, std::shared_ptr<PooledConnection> idleConnection) {
        Arm(timeout);
        Proceed(std::move(idleConnection));
    }

    /** Waits for `leader`'s connection (see Impl::opening); the deadline runs from now. */
    void Follow(std::chrono::milliseconds timeout, Exchange &leader) {
        Arm(timeout);
        leader.follower_ = shared_from_this();
    }

    /** Ends the request with status 0; a no-op once it has ended. */
    void Fail(NetFailure kind, std::string description) {
        if (!finished_) Finish(NetworkError(kind, std::move(description)));
    }

    bool Finished() const { return finished_; }

  private:
    void Arm(std::chrono::milliseconds timeout) {
        deadline_.expires_after(timeout);
        deadline_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->Fail(NetFailure::TimedOut, "timed out");
        });
    }

    void Proceed(std::shared_ptr<PooledConnection> idleConnection) {
        if (idleConnection) {
            connection_ = std::move(idleConnection);
            reused_ = true;
            Write();
        } else {
            Connect();
        }
    }

    void Connect() {
        reused_ = false;
        const auto client = client_.lock();
        if (!client) {
            return Fail(NetFailure::ShutDown, kShutDown);
        } else if (!url_.Tls()) {
            connection_ = std::make_shared<PooledConnection>(client->io);
        } else if (!client->tls.context) {
            return Fail(NetFailure::Tls, "TLS setup failed: " + client->tls.error);
        } else {
            connection_ = std::make_shared<PooledConnection>(client->io, *client->tls.context);
            if (auto error = PrepareTlsConnection(connection_->stream.TlsHandle(), url_.host); !error.empty())
                return Fail(NetFailure::Tls, error);
            client->opening.try_emplace(origin_, weak_from_this());
        }
        auto resolved = [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type endpoints) {
            if (self->finished_) return;
            if (ec)
                return self->Fail(NetFailure::NameNotResolved,
                                  "cannot resolve " + self->url_.host + ": " + ec.message());
            self->ConnectTo(endpoints);
        };
        ResolveThen(resolver_, url_.host, url_.port, std::move(resolved));
    }

    void ConnectTo(const tcp::resolver::results_type &endpoints) {
        auto connected = [self = shared_from_this()](beast::error_code ec, const tcp::endpoint &) {
            if (self->finished_) return;
            if (ec)
                return self->Fail(ConnectFailure(ec),
                                  "cannot connect to " + HostHeaderValue(self->url_) + ": " + ec.message());
            // Requests are written whole; Nagle would hold the last segment for the peer's delayed ACK (~40 ms).
            beast::error_code ignored;
            self->connection_->Tcp().socket().set_option(tcp::no_delay(true), ignored);
            if (self->url_.Tls()) return self->Handshake();
            self->Write();
        };
        connection_->Tcp().async_connect(endpoints, std::move(connected));
    }

    void Handshake() {
        connection_->stream.AsyncHandshake([self = shared_from_this()](beast::error_code ec) {
            if (self->finished_) return;
            if (ec) {
                auto *tls = self->connection_->stream.TlsHandle();
                return self->Fail(TlsFailureKind(tls), "TLS handshake with " + self->url_.host +
                                                           " failed: " + DescribeTlsFailure(tls, ec.message()));
            }
            self->NoLongerOpening();
            self->Write();
        });
    }

    void Write() {
        if (clearToWrite_ && !clearToWrite_()) return Hold();
        parser_.emplace();
        parser_->body_limit(kMaxResponseBodyBytes);
        // A response to HEAD announces a body it does not carry.
        parser_->skip(request_.method() == http::verb::head);
        http::async_write(connection_->stream, request_, [self = shared_from_this()](beast::error_code ec, size_t) {
            if (self->finished_) return;
            if (ec) return self->FailTransfer("sending the request failed: ", ec);
            self->Read();
        });
    }

    void Read() {
        http::async_read(connection_->stream, connection_->buffer, *parser_,
                         [self = shared_from_this()](beast::error_code ec, size_t) {
                             if (self->finished_) return;
                             if (ec) return self->FailTransfer("reading the response failed: ", ec);
                             self->Complete();
                         });
    }

    /** A write or read error: on a reused connection that never answered, the server had closed it meanwhile. */
    void FailTransfer(const char *what, beast::error_code ec) {
        const bool nothingReceived = !parser_->got_some() && connection_->buffer.size() == 0;
        if (reused_ && nothingReceived) {
            connection_->Close();
            return Connect();
        }
        Fail(NetFailure::Transfer, what + ec.message());
    }

    /** Completes unsent (HttpRequest::clearToWrite); the connection, connected and unused, goes back to the pool. */
    void Hold() {
        if (auto client = client_.lock()) client->ReturnIdle(origin_, std::move(connection_));
        HttpResponse response;
        response.held = true;
        response.networkError = "held before sending";
        Finish(std::move(response));
    }

    void Complete() {
        auto message = parser_->release();
        const bool reusable = message.keep_alive() && connection_->buffer.size() == 0;
        if (reusable) {
            if (auto client = client_.lock()) client->ReturnIdle(origin_, std::move(connection_));
        }
        Finish(ToResponse(std::move(message)));
    }

    void NoLongerOpening() {
        const auto client = client_.lock();
        if (!client) return;
        if (const auto it = client->opening.find(origin_);
            it != client->opening.end() && it->second.lock().get() == this) {
            client->opening.erase(it);
        }
    }

    void Finish(HttpResponse response) {
        finished_ = true;
        deadline_.cancel();
        resolver_.cancel();
        NoLongerOpening();
        // Closed but kept: an operation cancelled by the close may still be using its stream and buffer.
        if (connection_) connection_->Close();
        auto self = shared_from_this();  // `active` may hold the last reference
        const auto client = client_.lock();
        if (client) client->active.erase(self);
        // The request that waited for our connection takes it now (Complete returned it to the pool), or opens its own.
        if (auto follower = std::move(follower_); follower && !follower->finished_) {
            if (!client || client->shutDown)
                follower->Fail(NetFailure::ShutDown, kShutDown);
            else
                follower->Proceed(client->TakeIdle(origin_));
        }
        auto done = std::move(done_);
        done(std::move(response));
    }

    const std::weak_ptr<Impl> client_;
    const Url url_;
    const std::string origin_;
    http::request<http::string_body> request_;
    const std::function<bool()> clearToWrite_;
    HttpDone done_;
    tcp::resolver resolver_;
    asio::steady_timer deadline_;
    std::shared_ptr<PooledConnection> connection_;
    std::optional<http::response_parser<http::string_body>> parser_;  // fresh for every attempt
    std::shared_ptr<Exchange> follower_;  // a request waiting for this one's new connection (Impl::opening)
    bool reused_ = false;
    bool finished_ = false;
};

void HttpClient::Impl::Start(HttpRequest request, HttpDone done) {
    if (shutDown) return done(NetworkError(NetFailure::ShutDown, kShutDown));
    auto url = Url::Parse(request.url);
    if (!url || (url->scheme != "http" && url->scheme != "https")) {
        return done(NetworkError(NetFailure::InvalidUrl, "invalid http(s) URL"));
    }
    auto message = BuildRequest(request, *url);
    const std::string origin = OriginOf(*url);
    auto exchange = std::make_shared<Exchange>(io, weak_from_this(), std::move(*url), std::move(message),
                                               std::move(request.clearToWrite), std::move(done));
    active.insert(exchange);
    const auto timeout = std::chrono::milliseconds(timeoutMs());
    auto idleConnection = TakeIdle(origin);
    if (!idleConnection) {
        if (const auto leader = TakeOpening(origin)) return exchange->Follow(timeout, *leader);
    }
    exchange->Start(timeout, std::move(idleConnection));
}

std::shared_ptr<HttpClient::Impl::Exchange> HttpClient::Impl::TakeOpening(const std::string &origin) {
    const auto it = opening.find(origin);
    if (it == opening.end()) return nullptr;
    auto leader = it->second.lock();
    opening.erase(it);  // one follower per connection: the next request opens its own
    return leader && !leader->Finished() ? leader : nullptr;
}

void HttpClient::Impl::Shutdown() {
    shutDown = true;
    for (auto &[origin, connections] : idle) {
        for (auto &connection : connections) connection->Close();
    }
    idle.clear();
    const auto pending = std::move(active);
    active.clear();
    for (const auto &exchange : pending) exchange->Fail(NetFailure::ShutDown, kShutDown);
}

std::shared_ptr<PooledConnection> HttpClient::Impl::TakeIdle(const std::string &origin) {
    auto it = idle.find(origin);
    if (it == idle.end()) return nullptr;
    auto &connections = it->second;
    while (!connections.empty()) {
        auto connection = std::move(connections.back());
        connections.pop_back();
        if (connection->Tcp().socket().is_open()) return connection;
    }
    return nullptr;
}

void HttpClient::Impl::ReturnIdle(const std::string &origin, std::shared_ptr<PooledConnection> connection) {
    auto &connections = idle[origin];
    if (shutDown || connections.size() >= kMaxIdlePerOrigin) return connection->Close();
    connections.push_back(std::move(connection));
}

HttpClient::HttpClient(const net::ClientExecutor &io, TlsOptions tls, std::function<int32_t()> timeoutMs)
    : impl_(std::make_shared<Impl>(io, MakeTlsClientContext(tls), std::move(timeoutMs))) {}

HttpClient::HttpClient(const net::ClientExecutor &io, const TlsClientContext &tls, std::function<int32_t()> timeoutMs)
    : impl_(std::make_shared<Impl>(io, tls, std::move(timeoutMs))) {}

HttpClient::~HttpClient() { impl_->Shutdown(); }

void HttpClient::Send(HttpRequest request, HttpDone done) {
    // The posted job keeps Impl alive, so a request sent while the client goes away still completes ("shut down").
    asio::post(impl_->io, [impl = impl_, request = std::move(request), done = std::move(done)]() mutable {
        impl->Start(std::move(request), std::move(done));
    });
}

void HttpClient::Shutdown() { impl_->Shutdown(); }

IdleConnectionSource HttpClient::IdleConnections() const {
    return [weak = std::weak_ptr<Impl>(impl_)](const Url &wsUrl) -> std::shared_ptr<PooledConnection> {
        const auto impl = weak.lock();
        if (!impl || impl->shutDown || (wsUrl.scheme != "ws" && wsUrl.scheme != "wss")) return nullptr;
        Url origin = wsUrl;
        origin.scheme = wsUrl.scheme == "wss" ? "https" : "http";
        return impl->TakeIdle(OriginOf(origin));
    };
}

}  // namespace svcpp::core::net
