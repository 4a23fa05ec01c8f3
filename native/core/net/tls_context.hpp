// The TLS client side shared by HttpClient and the WebSocket factory: one verifying ssl::context per client, its trust
// store (shared by every client of the same trust: net/trust_store.hpp) attached before the client's first TLS
// connection, then SNI and host name verification per connection. Nothing here can turn verification off.
#pragma once
#include <memory>
#include <string>

#include "net/http.hpp"

namespace boost::asio::ssl {
class context;
}
struct ssl_st;

namespace svcpp::core::net {

struct TlsClientContext {
    /** Verifies the peer against the system roots plus TlsOptions::caFile; null when that could not be set up. */
    std::shared_ptr<boost::asio::ssl::context> context;
    /** Why context is null; every TLS connection of the client fails with it. */
    std::string error;
};

TlsClientContext MakeTlsClientContext(const TlsOptions &options);

/**
 * Before connecting (on the client's I/O thread): the context's trust store, loaded on the first call (a CA file that
 * cannot be read is an error then and on every later call), SNI (names only) and the name or IP address the
 * certificate must carry. "" or an error.
 */
std::string PrepareTlsConnection(ssl_st *ssl, const std::string &host);

/** A failed handshake as text, with OpenSSL's verification result when the certificate was the cause. */
std::string DescribeTlsFailure(ssl_st *ssl, const std::string &errorMessage);
/** TlsVerification when the handshake failed because the peer's certificate did not verify, else Tls. */
NetFailure TlsFailureKind(ssl_st *ssl);

}  // namespace svcpp::core::net
