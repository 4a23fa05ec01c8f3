// One keep-alive TCP or TLS connection of HttpClient's pool. Shared with the WebSocket factory, which may take an
// idle one to the gateway's origin and send its upgrade request on it (HTTP/1.1 allows an Upgrade on any request of a
// persistent connection, RFC 9110 §7.8) instead of paying a second TCP and TLS handshake. Beast inside: only
// net/*.cpp include this header.
#pragma once
#include <boost/beast/core/flat_buffer.hpp>

#include "net/transport_stream.hpp"

namespace svcpp::core::net {

/** The buffer keeps whatever was read past the last response (the pool only keeps connections where it is empty). */
struct PooledConnection {
    TransportStream stream;
    boost::beast::flat_buffer buffer;

    explicit PooledConnection(const net::ClientExecutor &io) : stream(io) {}
    PooledConnection(const net::ClientExecutor &io, boost::asio::ssl::context &tls) : stream(io, tls) {}

    bool Tls() const { return stream.Tls(); }
    boost::beast::tcp_stream &Tcp() { return stream.Tcp(); }
    void Close() { stream.Close(); }
};

}  // namespace svcpp::core::net
