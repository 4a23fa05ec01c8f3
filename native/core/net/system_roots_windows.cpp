#include "net/system_roots.hpp"

#include <windows.h>
#include <wincrypt.h>

#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

namespace svcpp::core::net {

void LoadSystemRoots(X509_STORE *store) {
    // "ROOT" of CertOpenSystemStoreW is the current user's view: the machine's roots, the group policy's and the
    // user's own, as Windows' TLS stack trusts them. Each certificate is DER; one OpenSSL cannot decode is skipped.
    HCERTSTORE system = CertOpenSystemStoreW(0, L"ROOT");
    if (!system) return;
    PCCERT_CONTEXT context = nullptr;
    while ((context = CertEnumCertificatesInStore(system, context)) != nullptr) {
        if (context->dwCertEncodingType != X509_ASN_ENCODING) continue;
        const unsigned char *der = context->pbCertEncoded;
        if (X509 *cert = d2i_X509(nullptr, &der, static_cast<long>(context->cbCertEncoded))) {
            X509_STORE_add_cert(store, cert);  // takes its own reference
            X509_free(cert);
        }
    }
    CertCloseStore(system, 0);
}

// Everything is loaded up front: OpenSSL has no lazy lookup into the Windows store.
void AddSystemLookups(X509_STORE *) {}

}  // namespace svcpp::core::net
