// The only calls into the real streams under TransportStream: each Beast/Asio operation below is compiled once per
// stream type here, with a type-erased handler, instead of once per caller's composed operation.
#include "net/transport_stream.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/basic_stream.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/websocket/teardown.hpp>

namespace svcpp::core::net {

namespace asio = boost::asio;
namespace beast = boost::beast;

namespace {

/**
 * The erased handler with the stream's executor as its own. It is the executor the handler had before erasure (every
 * caller is a Beast operation of this stream, which completes on the stream's executor), so nothing changes where it
 * runs; but it spares each completion a second type-erased executor (asio::any_completion_executor), which moreover
 * cannot be required never to block, as Beast's TCP teardown requires of the executor it posts to.
 */
template <class Handler>
auto OnStreamExecutor(const TransportStream::executor_type &executor, Handler handler) {
    return asio::bind_executor(executor, std::move(handler));
}

}  // namespace

TransportStream::TransportStream(const ClientExecutor &io) : stream_(std::in_place_index<0>, io) {}

TransportStream::TransportStream(asio::ip::tcp::socket socket) : stream_(std::in_place_index<0>, std::move(socket)) {}

TransportStream::TransportStream(const ClientExecutor &io, asio::ssl::context &tls)
    : stream_(std::in_place_index<1>, io, tls) {}

TransportStream::TransportStream(TransportStream &&) noexcept = default;
TransportStream::~TransportStream() = default;

TransportStream::executor_type TransportStream::get_executor() noexcept { return Tcp().get_executor(); }

beast::tcp_stream &TransportStream::Tcp() noexcept {
    if (auto *tls = std::get_if<1>(&stream_)) return beast::get_lowest_layer(*tls);
    return std::get<0>(stream_);
}

ssl_st *TransportStream::TlsHandle() noexcept {
    auto *tls = std::get_if<1>(&stream_);
    return tls ? tls->native_handle() : nullptr;
}

void TransportStream::AsyncHandshake(DoneHandler done) {
    if (auto *tls = std::get_if<1>(&stream_)) {
        return tls->async_handshake(asio::ssl::stream_base::client, OnStreamExecutor(get_executor(), std::move(done)));
    }
    asio::post(get_executor(), [done = std::move(done)]() mutable { std::move(done)(beast::error_code()); });
}

void TransportStream::Close() { Tcp().close(); }

void TransportStream::ReadSome(const MutableBuffers &buffers, TransferHandler handler) {
    auto bound = OnStreamExecutor(get_executor(), std::move(handler));
    if (auto *tls = std::get_if<1>(&stream_)) return tls->async_read_some(buffers, std::move(bound));
    std::get<0>(stream_).async_read_some(buffers, std::move(bound));
}

void TransportStream::WriteSome(const ConstBuffers &buffers, TransferHandler handler) {
    auto bound = OnStreamExecutor(get_executor(), std::move(handler));
    if (auto *tls = std::get_if<1>(&stream_)) return tls->async_write_some(buffers, std::move(bound));
    std::get<0>(stream_).async_write_some(buffers, std::move(bound));
}

void TransportStream::Teardown(beast::role_type role, DoneHandler handler) {
    using beast::websocket::async_teardown;  // and, by argument-dependent lookup, Beast's for tcp_stream and ssl_stream
    auto bound = OnStreamExecutor(get_executor(), std::move(handler));
    if (auto *tls = std::get_if<1>(&stream_)) return async_teardown(role, *tls, std::move(bound));
    async_teardown(role, std::get<0>(stream_), std::move(bound));
}

}  // namespace svcpp::core::net
