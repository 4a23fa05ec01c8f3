#include "net/tls_context.hpp"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/context.hpp>
#include <mutex>

#include "net/trust_store.hpp"

namespace svcpp::core::net {

namespace {

/** What inet_pton reads as an IPv4 or IPv6 address (Asio's parser, the same on Windows); no scope id (%eth0). */
bool IsIpLiteral(const std::string &host) {
    if (host.find('%') != std::string::npos) return false;
    boost::system::error_code ec;
    boost::asio::ip::make_address(host, ec);
    return !ec;
}

/**
 * The trust a client's context verifies against, loaded before its first TLS connection, on the I/O thread that makes
 * it (the system bundle's first decoding, ~13 ms, then never stalls the thread that creates the client).
 */
struct PendingTrust {
    std::string caFile;
    std::once_flag once;
    std::shared_ptr<x509_store_st> store;  // keeps the shared store's cache entry alive (net/trust_store.hpp)
    std::string error;                     // why the trust could not be loaded: every TLS connection fails with it
};

int PendingTrustIndex() {
    static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

}  // namespace

TlsClientContext MakeTlsClientContext(const TlsOptions &options) {
    namespace ssl = boost::asio::ssl;
    struct ContextWithTrust {
        ssl::context context{ssl::context::tls_client};
        PendingTrust trust;
    };
    auto holder = std::make_shared<ContextWithTrust>();
    holder->trust.caFile = options.caFile;
    if (SSL_CTX_set_ex_data(holder->context.native_handle(), PendingTrustIndex(), &holder->trust) != 1) {
        return {nullptr, "cannot attach the trust store"};
    }
    boost::system::error_code ec;
    holder->context.set_verify_mode(ssl::verify_peer, ec);
    if (ec) return {nullptr, "cannot enable certificate verification: " + ec.message()};
    return {std::shared_ptr<ssl::context>(holder, &holder->context), {}};
}

std::string PrepareTlsConnection(ssl_st *ssl, const std::string &host) {
    SSL_CTX *context = SSL_get_SSL_CTX(ssl);
    if (auto *trust = static_cast<PendingTrust *>(SSL_CTX_get_ex_data(context, PendingTrustIndex()))) {
        std::call_once(trust->once, [&] {
            TrustStore loaded = SharedTrustStore(trust->caFile);
            if (!loaded.store) {
                trust->error = std::move(loaded.error);
                return;
            }
            trust->store = std::move(loaded.store);
            // Verification reads the context's store when the handshake runs, so this SSL object sees it too.
            SSL_CTX_set1_cert_store(context, trust->store.get());
        });
        if (!trust->error.empty()) return "TLS setup failed: " + trust->error;
    }
    X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
    if (IsIpLiteral(host)) {
        // RFC 6066 forbids IP addresses in SNI; the certificate must list the address as an IP SAN.
        if (X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) return "cannot verify the IP address " + host;
        return {};
    }
    if (SSL_set_tlsext_host_name(ssl, host.c_str()) != 1) return "cannot set the TLS server name " + host;
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    if (SSL_set1_host(ssl, host.c_str()) != 1) return "cannot verify the host name " + host;
    return {};
}

NetFailure TlsFailureKind(ssl_st *ssl) {
    return SSL_get_verify_result(ssl) == X509_V_OK ? NetFailure::Tls : NetFailure::TlsVerification;
}

std::string DescribeTlsFailure(ssl_st *ssl, const std::string &errorMessage) {
    const long verifyResult = SSL_get_verify_result(ssl);
    if (verifyResult == X509_V_OK) return errorMessage;
    return errorMessage + " (" + X509_verify_cert_error_string(verifyResult) + ")";
}

}  // namespace svcpp::core::net
