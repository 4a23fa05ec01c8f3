// One keep-alive TCP or TLS connection of HttpClient's pool. Shared with the WebSocket factory, which may take an
// idle one to the gateway's origin and send its upgrade request on it (HTTP/1.1 allows an Upgrade on any request of a
// persistent connection, RFC 9110 §7.8) instead of paying a second TCP and TLS handshake. Beast inside: only
// net/*.cpp include this header.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <memory>
#include <variant>

#include "net/client_executor.hpp"

namespace svcpp::core::net {

/** The buffer keeps whatever was read past the last response (the pool only keeps connections where it is empty). */
struct PooledConnection {
    std::variant<boost::beast::tcp_stream, boost::beast::ssl_stream<boost::beast::tcp_stream>> stream;
    boost::beast::flat_buffer buffer;

    explicit PooledConnection(const net::ClientExecutor &io) : stream(std::in_place_index<0>, io) {}
    PooledConnection(const net::ClientExecutor &io, boost::asio::ssl::context &tls) : stream(std::in_place_index<1>, io, tls) {}

    bool Tls() const { return stream.index() == 1; }
    boost::beast::tcp_stream &Tcp() {
        return std::visit([](auto &s) -> boost::beast::tcp_stream & { return boost::beast::get_lowest_layer(s); }, stream);
    }
    void Close() { Tcp().close(); }
};

}  // namespace svcpp::core::net
