// LoopbackListener: the desktop OAuth2 redirect receiver (RFC 8252 §7.3). Listens on 127.0.0.1 on an
// ephemeral port, answers the browser's redirect with a short page, and hands the request target (path and
// query) to its owner. Boost.Beast stays inside loopback_listener.cpp.
//
// Threading: create, use and destroy on the client's I/O thread; onRedirect runs there.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace svcpp::core::net {
class ClientExecutor;  // net/client_executor.hpp: the executor of one client's I/O objects
}

namespace svcpp::core::auth {

class LoopbackListener {
  public:
    /** Called once per request to `path` (other paths get 404); returns the HTML page to answer with. */
    using OnRedirect = std::function<std::string(const std::string &target)>;

    /** Starts listening; nullptr with `error` set when no loopback port can be bound. */
    static std::shared_ptr<LoopbackListener> Start(const net::ClientExecutor &io, std::string path,
                                                   OnRedirect onRedirect, std::string &error);

    virtual ~LoopbackListener() = default;
    virtual uint16_t Port() const = 0;
    /** Stops accepting and closes open connections; onRedirect is not called again. */
    virtual void Stop() = 0;
};

}  // namespace svcpp::core::auth
