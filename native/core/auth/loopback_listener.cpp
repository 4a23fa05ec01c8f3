#include "auth/loopback_listener.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

#include "net/client_executor.hpp"
#include "net/transport_stream.hpp"

namespace svcpp::core::auth {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

class Listener final : public LoopbackListener, public std::enable_shared_from_this<Listener> {
  public:
    Listener(const net::ClientExecutor &io, std::string path, OnRedirect onRedirect)
        : acceptor_(io), path_(std::move(path)), onRedirect_(std::move(onRedirect)) {}

    bool Open(std::string &error) {
        beast::error_code ec;
        acceptor_.open(tcp::v4(), ec);
        if (!ec) acceptor_.bind(tcp::endpoint(asio::ip::address_v4::loopback(), 0), ec);
        if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) {
            error = "cannot listen on 127.0.0.1: " + ec.message();
            return false;
        }
        port_ = acceptor_.local_endpoint(ec).port();
        return true;
    }

    void Accept() {
        acceptor_.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
            if (ec || self->stopped_) return;
            self->Serve(std::make_shared<net::TransportStream>(std::move(socket)));
            self->Accept();
        });
    }

    uint16_t Port() const override { return port_; }

    void Stop() override {
        stopped_ = true;
        beast::error_code ec;
        acceptor_.close(ec);
    }

  private:
    struct Exchange {
        beast::flat_buffer buffer;
        http::request<http::string_body> request;
        http::response<http::string_body> response;
    };

    // The connection is a TransportStream (plain here) so that Beast's HTTP code runs over the one stream type the
    // HTTP client and the WebSocket use, and its stream layer is not compiled a second time for a bare tcp_stream.
    void Serve(std::shared_ptr<net::TransportStream> stream) {
        auto exchange = std::make_shared<Exchange>();
        stream->Tcp().expires_after(std::chrono::seconds(10));  // a browser that connects and never sends is dropped
        http::async_read(*stream, exchange->buffer, exchange->request,
                         [self = shared_from_this(), stream, exchange](beast::error_code ec, std::size_t) {
                             if (ec) return;
                             self->Answer(stream, exchange);
                         });
    }

    void Answer(const std::shared_ptr<net::TransportStream> &stream, const std::shared_ptr<Exchange> &exchange) {
        const std::string target(exchange->request.target());
        const std::string path = target.substr(0, target.find('?'));
        auto &response = exchange->response;
        response.version(exchange->request.version());
        response.keep_alive(false);
        response.set(http::field::content_type, "text/html; charset=utf-8");
        response.set(http::field::cache_control, "no-store");
        if (path == path_ && !stopped_ && onRedirect_) {
            response.result(http::status::ok);
            response.body() = onRedirect_(target);
        } else {
            response.result(http::status::not_found);
            response.body() = "<!doctype html><title>Not found</title>";
        }
        response.prepare_payload();
        http::async_write(*stream, response, [stream, exchange](beast::error_code, std::size_t) {
            beast::error_code ignored;
            stream->Tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
        });
    }

    tcp::acceptor acceptor_;
    const std::string path_;
    OnRedirect onRedirect_;
    uint16_t port_ = 0;
    bool stopped_ = false;
};

}  // namespace

std::shared_ptr<LoopbackListener> LoopbackListener::Start(const net::ClientExecutor &io, std::string path,
                                                          OnRedirect onRedirect, std::string &error) {
    auto listener = std::make_shared<Listener>(io, std::move(path), std::move(onRedirect));
    if (!listener->Open(error)) return nullptr;
    listener->Accept();
    return listener;
}

}  // namespace svcpp::core::auth
