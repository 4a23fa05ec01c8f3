// Client::Net — the half of a Client that lives on its I/O thread: the HTTP stack, the gateway session and the
// token-expiry timer. Only client_*.cpp include this (it pulls in Asio).
#pragma once
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <optional>
#include <string>

#include "client/client.hpp"
#include "gateway/session.hpp"
#include "net/client_executor.hpp"
#include "net/http.hpp"
#include "net/tls_context.hpp"
#include "net/websocket.hpp"

namespace svcpp::core {

/** No connection attempt under way: UpdateToken's held expiry check may go (client_connection.cpp). */
inline bool IsSettled(ClientStatus status) {
    return status == ClientStatus::Ready || status == ClientStatus::Disconnected;
}

struct Client::Net {
    Net(const net::ClientExecutor &context, const net::TlsOptions &tlsOptions, std::function<int32_t()> timeoutMs,
        net::RestClient::LogFn log)
        : io(context),
          tls(net::MakeTlsClientContext(tlsOptions)),
          http(context, tls, std::move(timeoutMs)),
          rest(context, http, std::move(log)),
          websockets(net::MakeWebSocketFactory(context, tls, http.IdleConnections())),
          expiryTimer(context),
          expiryCheckTimer(context) {}

    net::ClientExecutor io;  // this client's executor on its I/O thread (net/io_thread.hpp)
    // One TLS context (trust store loaded once) for the client's HTTP and WebSocket connections: a WebSocket may run
    // over a connection of the HTTP pool (the gateway's upgrade rides on the connection of GET /gateway).
    net::TlsClientContext tls;
    net::HttpClient http;
    net::RestClient rest;
    net::WebSocketFactory websockets;

    // Gateway: Connect() → HttpWait (GET /gateway) → session. Disconnect during HttpWait bumps connectAttempt,
    // which makes the pending discovery's answer stale.
    std::unique_ptr<gateway::Session> session;
    uint64_t connectAttempt = 0;
    bool connectAfterDisconnect = false;
    // A READY since Connect: a later READY is a new session whose gap the host must hear about (MissedEvents).
    bool hadSession = false;

    boost::asio::steady_timer expiryTimer;
    // UpdateToken's expiry check (GET /oauth2/@me), held back while a connection is being made (client_connection.cpp).
    struct ExpiryCheck {
        uint64_t generation;
        net::HttpRequest request;
    };
    std::optional<ExpiryCheck> expiryCheck;
    boost::asio::steady_timer expiryCheckTimer;
};

}  // namespace svcpp::core
