#include "net_test_server.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <algorithm>
#include <cctype>
#include <mutex>
#include <thread>

namespace svcpp::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using asio::awaitable;
using asio::use_awaitable;
using tcp = asio::ip::tcp;

struct TestServer::Impl {
    explicit Impl(Handler handler) : handler(std::move(handler)) {}

    asio::io_context io;  // first member: destroyed last, with the coroutines still suspended in it
    tcp::acceptor acceptor{io};
    std::optional<asio::ssl::context> tls;
    Handler handler;
    std::thread thread;
    uint16_t port = 0;

    mutable std::mutex mutex;
    int accepted = 0;
    int ended = 0;
    std::vector<ServerRequest> requests;

    awaitable<void> Accept();
    awaitable<void> Serve(tcp::socket socket, int number);
    template <class Stream>
    awaitable<void> Converse(Stream &stream, int number);
    template <class Stream>
    awaitable<void> Echo(Stream &stream, http::request<http::string_body> upgrade);
};

namespace {

std::string Lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

}  // namespace

awaitable<void> TestServer::Impl::Accept() {
    for (;;) {
        tcp::socket socket = co_await acceptor.async_accept(use_awaitable);
        int number;
        {
            std::lock_guard lock(mutex);
            number = ++accepted;
        }
        asio::co_spawn(io, Serve(std::move(socket), number), asio::detached);
    }
}

awaitable<void> TestServer::Impl::Serve(tcp::socket socket, int number) {
    try {
        if (tls) {
            beast::ssl_stream<beast::tcp_stream> stream(std::move(socket), *tls);
            co_await stream.async_handshake(asio::ssl::stream_base::server, use_awaitable);
            co_await Converse(stream, number);
        } else {
            beast::tcp_stream stream(std::move(socket));
            co_await Converse(stream, number);
        }
    } catch (const std::exception &) {
        // The client left, or refused our certificate: either way the connection is over.
    }
    std::lock_guard lock(mutex);
    ++ended;
}

template <class Stream>
awaitable<void> TestServer::Impl::Converse(Stream &stream, int number) {
    beast::flat_buffer buffer;
    for (;;) {
        http::request<http::string_body> request;
        co_await http::async_read(stream, buffer, request, use_awaitable);
        if (websocket::is_upgrade(request)) co_return co_await Echo(stream, std::move(request));

        ServerRequest seen{
            std::string(request.method_string()), std::string(request.target()), request.body(), {}, number,
            std::chrono::steady_clock::now()};
        for (const auto &field : request) seen.headers[Lower(field.name_string())] = std::string(field.value());
        {
            std::lock_guard lock(mutex);
            requests.push_back(seen);
        }
        const ServerReply reply = handler ? handler(seen) : ServerReply{};
        if (reply.silent) continue;

        http::response<http::string_body> response(static_cast<http::status>(reply.status), 11);
        for (const auto &[name, value] : reply.headers) response.insert(name, value);
        response.body() = reply.body;
        response.prepare_payload();
        response.keep_alive(request.keep_alive());
        co_await http::async_write(stream, response, use_awaitable);
        if (reply.closeAfter || !request.keep_alive()) co_return;
    }
}

template <class Stream>
awaitable<void> TestServer::Impl::Echo(Stream &stream, http::request<http::string_body> upgrade) {
    websocket::stream<Stream &> ws(stream);
    co_await ws.async_accept(upgrade, use_awaitable);
    beast::flat_buffer buffer;
    for (;;) {
        co_await ws.async_read(buffer, use_awaitable);  // throws websocket::error::closed when the session ends
        const std::string text = beast::buffers_to_string(buffer.data());
        buffer.consume(buffer.size());
        if (text.starts_with("close:")) {
            const auto code = static_cast<websocket::close_code>(std::stoi(text.substr(6)));
            co_await ws.async_close(websocket::close_reason(code, "server closes"), use_awaitable);
            co_return;
        }
        if (text == "drop") co_return;
        if (text == "mute") {
            asio::steady_timer forever(io, asio::steady_timer::time_point::max());
            co_await forever.async_wait(use_awaitable);
        }
        ws.text(true);
        co_await ws.async_write(asio::buffer(text), use_awaitable);
    }
}

TestServer::TestServer(Handler handler, std::optional<ServerCertificate> tls)
    : impl_(std::make_unique<Impl>(std::move(handler))) {
    if (tls) {
        impl_->tls.emplace(asio::ssl::context::tls_server);
        impl_->tls->use_certificate_chain(asio::buffer(tls->chainPem));
        impl_->tls->use_private_key(asio::buffer(tls->keyPem), asio::ssl::context::pem);
    }
    const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
    impl_->acceptor.open(endpoint.protocol());
    impl_->acceptor.bind(endpoint);
    impl_->acceptor.listen();
    impl_->port = impl_->acceptor.local_endpoint().port();
    asio::co_spawn(impl_->io, impl_->Accept(), asio::detached);
    impl_->thread = std::thread([impl = impl_.get()] { impl->io.run(); });
}

TestServer::~TestServer() {
    impl_->io.stop();
    impl_->thread.join();
}

uint16_t TestServer::Port() const { return impl_->port; }

int TestServer::Accepted() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->accepted;
}

int TestServer::Ended() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->ended;
}

std::vector<ServerRequest> TestServer::Requests() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->requests;
}

bool Eventually(const std::function<bool()> &pred, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > deadline) return pred();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

}  // namespace svcpp::test
