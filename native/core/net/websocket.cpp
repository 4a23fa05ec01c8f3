// The WebSocket client over Beast. The user holds a Handle; the Connection behind it lives as long as its
// asynchronous operations do (each holds a shared_ptr), so it can never be destroyed under a running handler.
// Dropping the Handle detaches the Connection: it stops its I/O and forgets the user's handlers at once.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <optional>

#include "net/client_executor.hpp"
#include "net/connect_failure.hpp"
#include "net/http_headers.hpp"
#include "net/pooled_connection.hpp"
#include "net/resolve.hpp"
#include "net/tls_context.hpp"
#include "net/transport_stream.hpp"
#include "net/websocket.hpp"

namespace svcpp::core::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
constexpr auto kCloseTimeout = std::chrono::seconds(2);
constexpr size_t kMaxMessageBytes = 16 * 1024 * 1024;
constexpr size_t kMaxCloseReasonBytes = 123;  // RFC 6455 §5.5: control frame payload <= 125 bytes, 2 for the code

/**
 * One WebSocket over TCP or TLS (TransportStream: Beast's WebSocket code is compiled once for both): the state, the
 * handlers, the write queue and the single way out (Finish), which fires `closed` exactly once.
 */
class Connection final : public std::enable_shared_from_this<Connection> {
  public:
    /** `tls` null: plain TCP (ws://). */
    Connection(const net::ClientExecutor &io, WebSocketHandlers handlers, IdleConnectionSource idle,
               std::shared_ptr<asio::ssl::context> tls)
        : io_(io),
          resolver_(io),
          deadline_(io),
          handlers_(std::make_shared<WebSocketHandlers>(std::move(handlers))),
          idle_(std::move(idle)),
          tlsContext_(std::move(tls)) {}

    void Start(Url url) {
        url_ = std::move(url);
        ArmHandshakeTimeout();
        // The HTTP client's idle connection to this origin (usually the one that just answered GET /gateway) carries
        // the upgrade: no second TCP and TLS handshake on the way to READY.
        if (auto pooled = idle_ ? idle_(url_) : nullptr; pooled && pooled->Tls() == Tls()) {
            reusing_ = true;
            ws_.emplace(std::move(pooled->stream));
            Configure();
            return Upgrade();
        }
        OpenNew();
    }

    void Send(std::string data, bool binary = false) {
        if (Over() || state_ == State::Closing) return;
        outbox_.push_back({std::move(data), binary});
        Flush();
    }

    void Close(uint16_t code, std::string reason) {
        if (Over() || state_ == State::Closing) return;
        if (reason.size() > kMaxCloseReasonBytes) reason.resize(kMaxCloseReasonBytes);
        if (state_ == State::Connecting) return EndSoon(code, std::move(reason));
        state_ = State::Closing;
        closeCode_ = code;
        closeReason_ = std::move(reason);
        // The message being written must outlive its write; the rest is never sent.
        outbox_.erase(outbox_.begin() + (writing_ ? 1 : 0), outbox_.end());
        deadline_.expires_after(kCloseTimeout);
        deadline_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && self->state_ == State::Closing && !self->Over()) {
                self->Finish(self->closeCode_, self->closeReason_);
            }
        });
        SendCloseFrame(websocket::close_reason(static_cast<websocket::close_code>(code), closeReason_));
    }

    void Abort() {
        if (!Over()) EndSoon(0, "aborted");
    }

    /** Ends before any I/O (bad URL, TLS setup); `closed` still arrives from the I/O loop, not from here. */
    void FailSoon(NetFailure kind, std::string reason) {
        failure_ = kind;
        EndSoon(0, std::move(reason));
    }

    /** The user dropped the handle: stop the I/O and never call a handler again. */
    void Detach() {
        handlers_.reset();
        if (state_ == State::Finished) return;
        state_ = State::Finished;
        Stop();
    }

  private:
    enum class State { Connecting, Open, Closing, Finished };

    bool Tls() const { return tlsContext_ != nullptr; }

    /** True once the outcome is settled: every completion that finds it so just returns. */
    bool Over() const { return state_ == State::Finished || ending_; }

    void ArmHandshakeTimeout() {
        deadline_.expires_after(kHandshakeTimeout);
        deadline_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && self->state_ == State::Connecting) self->Fail(NetFailure::TimedOut, "timed out");
        });
    }

    void Opened() {
        state_ = State::Open;
        deadline_.cancel();
        if (auto handlers = handlers_; handlers && handlers->open) handlers->open();
        if (Over()) return;
        ReadNext();  // also while Closing: the peer's close frame arrives through the read
        Flush();
    }

    void Received(std::string data, bool text) {
        auto handlers = handlers_;
        if (!handlers) return;
        // One handler or the other takes the message: a single call site, so it is visibly moved once.
        auto &deliver = text ? handlers->message : handlers->binaryMessage;
        if (deliver) deliver(std::move(data));
    }

    void Flush() {
        if (state_ != State::Open || writing_ || outbox_.empty()) return;
        writing_ = true;
        WriteFront();
    }

    void Written(beast::error_code ec) {
        writing_ = false;
        if (Over()) return;
        if (ec) return Fail(NetFailure::Transfer, "sending failed: " + ec.message());
        outbox_.pop_front();
        Flush();
    }

    /** The transport failed or was closed. Once we have sent our close frame, that is how the session ends. */
    void Fail(NetFailure kind, std::string description) {
        if (Over()) return;
        if (state_ == State::Closing) return FinishClosingHandshake();
        failure_ = kind;
        Finish(0, std::move(description));
    }

    /** A close frame was exchanged: the peer's code wins; ours stands in when it sent none (or nothing). */
    void FinishClosingHandshake() {
        if (Over()) return;
        const auto peer = PeerCloseFrame();
        if (peer.code != websocket::close_code::none) {
            return Finish(peer.code, std::string(peer.reason.data(), peer.reason.size()));
        }
        if (state_ == State::Closing) return Finish(closeCode_, closeReason_);
        Finish(websocket::close_code::no_status, "");
    }

    void Finish(int code, std::string reason) {
        if (state_ == State::Finished) return;
        state_ = State::Finished;
        Stop();
        auto handlers = std::move(handlers_);
        if (!handlers) return;
        if (failure_ != NetFailure::None && handlers->failed) handlers->failed(failure_);
        if (handlers->closed) handlers->closed(code, std::move(reason));
    }

    /** Settles the outcome now and reports it from the I/O loop, so no handler runs inside the user's call. */
    void EndSoon(int code, std::string reason) {
        ending_ = true;
        Stop();
        asio::post(io_, [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
            self->Finish(code, std::move(reason));
        });
    }

    void Stop() {
        deadline_.cancel();
        resolver_.cancel();
        CloseTransport();
    }

    /** A connection of our own: resolve, TCP, TLS, then the upgrade. */
    void OpenNew() {
        reusing_ = false;
        if (Tls()) {
            ws_.emplace(io_, *tlsContext_);
            if (auto error = PrepareTlsConnection(ws_->next_layer().TlsHandle(), url_.host); !error.empty()) {
                return FailSoon(NetFailure::Tls, error);
            }
        } else {
            ws_.emplace(io_);
        }
        Configure();
        auto resolved = [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type endpoints) {
            if (self->Over()) return;
            if (ec)
                return self->Fail(NetFailure::NameNotResolved,
                                  "cannot resolve " + self->url_.host + ": " + ec.message());
            self->ConnectTo(endpoints);
        };
        ResolveThen(resolver_, url_.host, url_.port, std::move(resolved));
    }

    void Configure() {
        ws_->read_message_max(kMaxMessageBytes);
        ws_->set_option(websocket::stream_base::decorator(
            [](websocket::request_type &request) { request.set(beast::http::field::user_agent, UserAgentValue()); }));
    }

    void ConnectTo(const tcp::resolver::results_type &endpoints) {
        auto connected = [self = shared_from_this()](beast::error_code ec, const tcp::endpoint &) {
            if (self->Over()) return;
            if (ec)
                return self->Fail(ConnectFailure(ec),
                                  "cannot connect to " + HostHeaderValue(self->url_) + ": " + ec.message());
            // Gateway payloads are small and latency-bound: never wait for a delayed ACK (Nagle).
            beast::error_code ignored;
            self->ws_->next_layer().Tcp().socket().set_option(tcp::no_delay(true), ignored);
            if (self->Tls()) return self->SecureThenUpgrade();
            self->Upgrade();
        };
        ws_->next_layer().Tcp().async_connect(endpoints, std::move(connected));
    }

    void SecureThenUpgrade() {
        ws_->next_layer().AsyncHandshake([self = shared_from_this()](beast::error_code ec) {
            if (self->Over()) return;
            if (ec) {
                auto *tls = self->ws_->next_layer().TlsHandle();
                return self->Fail(TlsFailureKind(tls), "TLS handshake with " + self->url_.host +
                                                           " failed: " + DescribeTlsFailure(tls, ec.message()));
            }
            self->Upgrade();
        });
    }

    void Upgrade() {
        ws_->async_handshake(HostHeaderValue(url_), url_.target, [self = shared_from_this()](beast::error_code ec) {
            if (self->Over()) return;
            if (ec && self->reusing_) {
                // The server may have closed the idle connection meanwhile, or not take an upgrade on a reused one:
                // once more on a connection of our own, which decides.
                self->CloseTransport();
                return self->OpenNew();
            }
            if (ec) return self->Fail(NetFailure::Transfer, "WebSocket handshake failed: " + ec.message());
            self->Opened();
        });
    }

    void ReadNext() {
        ws_->async_read(inbox_, [self = shared_from_this()](beast::error_code ec, size_t) {
            if (self->Over()) return;
            if (ec == websocket::error::closed) return self->FinishClosingHandshake();
            if (ec) return self->Fail(NetFailure::Transfer, "connection lost: " + ec.message());
            const bool text = self->ws_->got_text();
            std::string message = beast::buffers_to_string(self->inbox_.data());
            self->inbox_.consume(self->inbox_.size());
            self->Received(std::move(message), text);
            if (!self->Over()) self->ReadNext();
        });
    }

    void WriteFront() {
        ws_->binary(outbox_.front().binary);
        ws_->async_write(asio::buffer(outbox_.front().data),
                         [self = shared_from_this()](beast::error_code ec, size_t) { self->Written(ec); });
    }

    void SendCloseFrame(const websocket::close_reason &ours) {
        // Completes after the read loop has seen the peer's close frame (or the transport failed).
        ws_->async_close(ours, [self = shared_from_this()](beast::error_code) { self->FinishClosingHandshake(); });
    }

    /** The close frame the peer sent, or close_code::none. */
    websocket::close_reason PeerCloseFrame() const { return ws_ ? ws_->reason() : websocket::close_reason(); }

    void CloseTransport() {
        if (ws_) ws_->next_layer().Close();
    }

    net::ClientExecutor io_;
    tcp::resolver resolver_;
    asio::steady_timer deadline_;            // the handshake timeout, then the close timeout
    NetFailure failure_ = NetFailure::None;  // why the transport failed, reported through handlers->failed
    struct Outgoing {
        std::string data;
        bool binary = false;
    };
    std::deque<Outgoing> outbox_;
    Url url_;
    std::shared_ptr<WebSocketHandlers> handlers_;  // copied before each call: a handler may drop the handle
    State state_ = State::Connecting;
    bool ending_ = false;
    bool writing_ = false;
    uint16_t closeCode_ = 0;
    std::string closeReason_;

    const IdleConnectionSource idle_;
    std::shared_ptr<asio::ssl::context> tlsContext_;  // kept alive for ws_; null for ws://
    // Emplaced by Start: over a pooled connection or one of our own (again after a failed upgrade on a pooled one).
    std::optional<websocket::stream<TransportStream, false>> ws_;  // false: no permessage-deflate
    bool reusing_ = false;  // ws_ runs over a pooled connection and has not upgraded yet
    beast::flat_buffer inbox_;
};

/** The user's handle: dropping it detaches the connection. */
class Handle final : public WebSocket {
  public:
    explicit Handle(std::shared_ptr<Connection> connection) : connection_(std::move(connection)) {}
    ~Handle() override { connection_->Detach(); }

    void Send(std::string text) override { connection_->Send(std::move(text)); }
    void SendBinary(std::string bytes) override { connection_->Send(std::move(bytes), true); }
    void Close(uint16_t code, std::string reason) override { connection_->Close(code, std::move(reason)); }
    void Abort() override { connection_->Abort(); }

  private:
    std::shared_ptr<Connection> connection_;
};

}  // namespace

WebSocketFactory MakeWebSocketFactory(const net::ClientExecutor &io, TlsOptions tls) {
    return MakeWebSocketFactory(io, MakeTlsClientContext(tls), {});
}

WebSocketFactory MakeWebSocketFactory(const net::ClientExecutor &io, TlsClientContext tls, IdleConnectionSource idle) {
    auto context = std::make_shared<const TlsClientContext>(std::move(tls));
    return [&io, context, idle = std::move(idle)](const std::string &text,
                                                  WebSocketHandlers handlers) -> std::shared_ptr<WebSocket> {
        auto url = Url::Parse(text);
        const bool secure = url && url->scheme == "wss";
        auto connection =
            std::make_shared<Connection>(io, std::move(handlers), idle, secure ? context->context : nullptr);
        if (!url || (url->scheme != "ws" && url->scheme != "wss")) {
            connection->FailSoon(NetFailure::InvalidUrl, "invalid ws(s) URL");
        } else if (secure && !context->context) {
            connection->FailSoon(NetFailure::Tls, "TLS setup failed: " + context->error);
        } else {
            connection->Start(std::move(*url));
        }
        return std::make_shared<Handle>(std::move(connection));
    };
}

}  // namespace svcpp::core::net
