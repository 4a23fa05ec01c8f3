// The certificate stores TLS clients verify peers against, built once per process per trust and shared.
//
// Why: OpenSSL 3 decodes every certificate of a PEM bundle through its provider framework, about 13 ms for Debian's
// system bundle on the development machine, and loading the bundle for every client made creating a client cost that
// much on the host's thread (an Electron UI thread, a game server's event loop). Now the system bundle is read once
// per process (on the first TLS connection's I/O thread: net/tls_context.cpp), each CA file once per version of it
// (path, size, modification time), and the TLS contexts of one trust share one X509_STORE: OpenSSL's stores are
// reference-counted and lock their own lookups, so concurrent handshakes on the I/O threads may verify against one
// store (curl's CA cache shares stores the same way).
#pragma once
#include <memory>
#include <string>

struct x509_store_st;

namespace svcpp::core::net {

struct TrustStore {
    /** Null when caFile could not be loaded; hand it to SSL_CTX_set1_cert_store, which takes its own reference. */
    std::shared_ptr<x509_store_st> store;
    /** Why store is null. */
    std::string error;
};

/**
 * The system roots (what SSL_CTX_set_default_verify_paths trusts: the default bundle or SSL_CERT_FILE, read once per
 * process; the default directory and store, looked up by subject when needed) plus caFile's certificates when given.
 */
TrustStore SharedTrustStore(const std::string &caFile);

}  // namespace svcpp::core::net
