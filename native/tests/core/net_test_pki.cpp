#include "net_test_pki.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

namespace svcpp::test {

namespace {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Cert = std::unique_ptr<X509, decltype(&X509_free)>;

void Check(bool ok, const char *what) {
    if (!ok) throw std::runtime_error(std::string("test PKI: ") + what + " failed");
}

Key NewKey() {
    Key key(EVP_EC_gen("P-256"), EVP_PKEY_free);
    Check(key != nullptr, "EC key generation");
    return key;
}

void AddExtension(X509 *cert, X509V3_CTX *context, int nid, const char *value) {
    X509_EXTENSION *extension = X509V3_EXT_nconf_nid(nullptr, context, nid, value);
    Check(extension != nullptr, value);
    Check(X509_add_ext(cert, extension, -1) == 1, "adding an extension");
    X509_EXTENSION_free(extension);
}

/** A certificate for key, signed by issuer (self-signed when issuer is null); a CA when subjectAltName is null. */
Cert NewCertificate(EVP_PKEY *key, const char *commonName, X509 *issuer, EVP_PKEY *issuerKey,
                    const char *subjectAltName) {
    static long serial = 1;
    Cert cert(X509_new(), X509_free);
    Check(cert != nullptr, "X509_new");
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial++);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
    Check(X509_set_pubkey(cert.get(), key) == 1, "X509_set_pubkey");
    X509_NAME *name = X509_get_subject_name(cert.get());
    const auto *cn = reinterpret_cast<const unsigned char *>(commonName);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, cn, -1, -1, 0);
    X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : name);

    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer ? issuer : cert.get(), cert.get(), nullptr, nullptr, 0);
    const bool ca = subjectAltName == nullptr;
    AddExtension(cert.get(), &context, NID_subject_key_identifier, "hash");
    if (ca) {
        AddExtension(cert.get(), &context, NID_basic_constraints, "critical,CA:TRUE");
        AddExtension(cert.get(), &context, NID_key_usage, "critical,keyCertSign,cRLSign");
    } else {
        AddExtension(cert.get(), &context, NID_authority_key_identifier, "keyid:always");
        AddExtension(cert.get(), &context, NID_basic_constraints, "critical,CA:FALSE");
        AddExtension(cert.get(), &context, NID_key_usage, "critical,digitalSignature");
        AddExtension(cert.get(), &context, NID_ext_key_usage, "serverAuth");
        AddExtension(cert.get(), &context, NID_subject_alt_name, subjectAltName);
    }
    Check(X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) > 0, "X509_sign");
    return cert;
}

template <class Write>
std::string ToPem(Write write) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    Check(write(bio.get()) == 1, "PEM encoding");
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<size_t>(size));
}

ServerCertificate NewServerCertificate(X509 *ca, EVP_PKEY *caKey, const char *subjectAltName) {
    Key key = NewKey();
    Cert cert = NewCertificate(key.get(), "svcpp test server", ca, caKey, subjectAltName);
    return {ToPem([&](BIO *bio) { return PEM_write_bio_X509(bio, cert.get()); }), ToPem([&](BIO *bio) {
                return PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
            })};
}

struct OwnedPki : TestPki {
    OwnedPki() {
        Key caKey = NewKey();
        Cert ca = NewCertificate(caKey.get(), "svcpp test CA", nullptr, nullptr, nullptr);
        caPem = ToPem([&](BIO *bio) { return PEM_write_bio_X509(bio, ca.get()); });
        caPemFile.Write(caPem);
        caFile = caPemFile.path;
        localhostAndIp = NewServerCertificate(ca.get(), caKey.get(), "DNS:localhost,IP:127.0.0.1");
        localhostOnly = NewServerCertificate(ca.get(), caKey.get(), "DNS:localhost");
        ipOnly = NewServerCertificate(ca.get(), caKey.get(), "IP:127.0.0.1");
    }
    TempPemFile caPemFile{"test-ca"};  // removed at exit, with the PKI
};

}  // namespace

const TestPki &Pki() {
    static const OwnedPki pki;
    return pki;
}

TempPemFile::TempPemFile(const std::string &tag)
    : path((std::filesystem::temp_directory_path() / ("svcpp-" + tag + "-" + std::to_string(getpid()) + ".pem"))
               .string()) {
    std::filesystem::remove(path);
}

TempPemFile::~TempPemFile() { std::filesystem::remove(path); }

void TempPemFile::Write(const std::string &text) const { std::ofstream(path, std::ios::trunc) << text; }

}  // namespace svcpp::test
