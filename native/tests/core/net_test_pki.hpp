// A throwaway PKI for the TLS tests: one CA and server certificates it signed, made once per test process.
#pragma once
#include <string>

namespace svcpp::test {

struct ServerCertificate {
    std::string chainPem;
    std::string keyPem;
};

struct TestPki {
    std::string caFile;                 // the CA certificate (PEM) in a temporary file, removed at exit
    ServerCertificate localhostAndIp;   // SAN DNS:localhost, IP:127.0.0.1
    ServerCertificate localhostOnly;    // SAN DNS:localhost
    ServerCertificate ipOnly;           // SAN IP:127.0.0.1
};

const TestPki &Pki();

}  // namespace svcpp::test
