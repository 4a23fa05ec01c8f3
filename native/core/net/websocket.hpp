// A WebSocket client connection (RFC 6455 over TCP or TLS), used by the gateway session.
// Boost.Beast stays inside websocket.cpp.
//
// Threading: create, use and destroy on the client's I/O thread; handlers run there too.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "net/http.hpp"
#include "net/tls_context.hpp"

namespace svcpp::core::net {

struct WebSocketHandlers {
    std::function<void()> open;                     // handshake done
    std::function<void(std::string text)> message;  // one complete text message
    /**
     * The connection is over (exactly once, after open or instead of it). code = the peer's close code,
     * or 0 when there was no close frame (TCP drop, TLS/handshake failure, DNS failure); reason = close
     * reason or error description.
     */
    std::function<void(int code, std::string reason)> closed;
    /** Optional: called just before `closed` (code 0) when the transport failed, with the kind of failure. */
    std::function<void(NetFailure kind)> failed;
    /** Optional: one complete binary message (the voice gateway's DAVE opcodes); ignored when unset. */
    std::function<void(std::string bytes)> binaryMessage;
};

class WebSocket {
  public:
    virtual ~WebSocket() = default;
    /** Queues a text message (sent in order). Ignored once closing. */
    virtual void Send(std::string text) = 0;
    /** Queues a binary message, in order with the text ones (the voice gateway's DAVE opcodes). Ignored once closing.
     */
    virtual void SendBinary(std::string bytes) = 0;
    /** Sends a close frame with code and waits (bounded, 2 s) for the peer; then `closed` fires. */
    virtual void Close(uint16_t code, std::string reason) = 0;
    /** Drops the TCP connection without a close frame; `closed` fires with code 0. */
    virtual void Abort() = 0;
};

/** Opens ws:// or wss:// (TLS verified like HttpClient: SNI, chain, host name). Handlers fire on io. */
using WebSocketFactory = std::function<std::shared_ptr<WebSocket>(const std::string &url, WebSocketHandlers handlers)>;

/** The real factory. Handshake timeout: 10 s. Messages up to 16 MiB. */
WebSocketFactory MakeWebSocketFactory(const net::ClientExecutor &io, TlsOptions tls);
/**
 * The client's factory: the TLS context it shares with its HttpClient, and that client's idle connections. A WebSocket
 * to the origin of an idle keep-alive connection sends its upgrade on that connection (the gateway's upgrade rides on
 * the connection that answered GET /gateway); when that fails (the server had closed it, or refuses an upgrade
 * there) it tries once more on a connection of its own.
 */
WebSocketFactory MakeWebSocketFactory(const net::ClientExecutor &io, TlsClientContext tls, IdleConnectionSource idle);

}  // namespace svcpp::core::net
