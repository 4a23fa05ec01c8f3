// A throwaway PKI for the TLS tests: one CA and server certificates it signed, made once per test process.
#pragma once
#include <string>

namespace svcpp::test {

struct ServerCertificate {
    std::string chainPem;
    std::string keyPem;
};

struct TestPki {
    std::string caPem;                 // the CA certificate (PEM)
    std::string caFile;                // caPem in a temporary file, removed at exit
    ServerCertificate localhostAndIp;  // SAN DNS:localhost, IP:127.0.0.1
    ServerCertificate localhostOnly;   // SAN DNS:localhost
    ServerCertificate ipOnly;          // SAN IP:127.0.0.1
};

const TestPki &Pki();

/** A PEM file of the test's own in the temporary directory (absent until written), removed with the object. */
struct TempPemFile {
    explicit TempPemFile(const std::string &tag);
    ~TempPemFile();
    TempPemFile(const TempPemFile &) = delete;
    TempPemFile &operator=(const TempPemFile &) = delete;
    void Write(const std::string &text) const;
    std::string path;
};

}  // namespace svcpp::test
