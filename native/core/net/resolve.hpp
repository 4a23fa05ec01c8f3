// Name resolution for HttpClient and the WebSocket factory: an IP literal (the local platform, 127.0.0.1 or ::1) is
// its own endpoint, so it skips the resolver. Asio resolves asynchronously on a resolver thread of its own: the hop
// there and back (and that thread's start, on a client's first connection) sat on every connect-to-Ready.
#pragma once
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <string>
#include <utility>

namespace svcpp::core::net {

/**
 * Calls done(error_code, results_type) once `host`:`port` is resolved, never inside this call (like async_resolve):
 * at once for an IP literal, through `resolver` for a name. Cancelling the resolver cancels only the latter.
 */
template <typename Done>
void ResolveThen(boost::asio::ip::tcp::resolver &resolver, const std::string &host, uint16_t port, Done &&done) {
    using boost::asio::ip::tcp;
    boost::system::error_code notIp;
    const auto address = boost::asio::ip::make_address(host, notIp);
    const std::string service = std::to_string(port);
    if (notIp) {
        resolver.async_resolve(host, service, tcp::resolver::numeric_service, std::forward<Done>(done));
        return;
    }
    auto results = tcp::resolver::results_type::create(tcp::endpoint(address, port), host, service);
    boost::asio::post(resolver.get_executor(),
                      [done = std::forward<Done>(done), results = std::move(results)]() mutable {
                          done(boost::system::error_code(), std::move(results));
                      });
}

}  // namespace svcpp::core::net
