#include "system_roots_reference.hpp"

#include <windows.h>
#include <wincrypt.h>

#include <set>
#include <string>

namespace svcpp::test {

std::size_t SystemRootCount() {
    // Windows' own view: the ROOT store's X.509 certificates, one per thumbprint (a store may list one twice, from
    // the machine's and the user's physical stores; OpenSSL's store keeps one copy of each).
    HCERTSTORE system = CertOpenSystemStoreW(0, L"ROOT");
    if (!system) return 0;
    std::set<std::string> thumbprints;
    PCCERT_CONTEXT context = nullptr;
    while ((context = CertEnumCertificatesInStore(system, context)) != nullptr) {
        if (context->dwCertEncodingType != X509_ASN_ENCODING) continue;
        BYTE hash[20];
        DWORD size = sizeof hash;
        if (CertGetCertificateContextProperty(context, CERT_SHA1_HASH_PROP_ID, hash, &size))
            thumbprints.emplace(reinterpret_cast<const char *>(hash), size);
    }
    CertCloseStore(system, 0);
    return thumbprints.size();
}

}  // namespace svcpp::test
