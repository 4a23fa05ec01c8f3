#include "net/tls_context.hpp"

#include <arpa/inet.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/ssl/context.hpp>

namespace svcpp::core::net {

namespace {

bool IsIpLiteral(const std::string &host) {
    in6_addr v6;
    in_addr v4;
    return inet_pton(AF_INET6, host.c_str(), &v6) == 1 || inet_pton(AF_INET, host.c_str(), &v4) == 1;
}

}  // namespace

TlsClientContext MakeTlsClientContext(const TlsOptions &options) {
    namespace ssl = boost::asio::ssl;
    auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
    boost::system::error_code ec;
    // A machine without a system store still works with caFile alone, so this one may fail quietly.
    context->set_default_verify_paths(ec);
    if (!options.caFile.empty()) {
        context->load_verify_file(options.caFile, ec);
        if (ec) return {nullptr, "cannot load the CA file " + options.caFile + ": " + ec.message()};
    }
    context->set_verify_mode(ssl::verify_peer, ec);
    if (ec) return {nullptr, "cannot enable certificate verification: " + ec.message()};
    return {std::move(context), {}};
}

std::string PrepareTlsConnection(ssl_st *ssl, const std::string &host) {
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
