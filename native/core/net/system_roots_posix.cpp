#include "net/system_roots.hpp"

#include <openssl/x509_vfy.h>

namespace svcpp::core::net {

void LoadSystemRoots(X509_STORE *store) {
    // SSL_CERT_FILE when set, else OpenSSL's default bundle; a machine without one still works with a CA file.
    if (X509_LOOKUP *file = X509_STORE_add_lookup(store, X509_LOOKUP_file())) {
        X509_LOOKUP_load_file(file, nullptr, X509_FILETYPE_DEFAULT);
    }
}

void AddSystemLookups(X509_STORE *store) {
    // As SSL_CTX_set_default_verify_paths adds them: consulted by subject only when a chain needs a certificate.
    if (X509_LOOKUP *dir = X509_STORE_add_lookup(store, X509_LOOKUP_hash_dir()))
        X509_LOOKUP_add_dir(dir, nullptr, X509_FILETYPE_DEFAULT);
    if (X509_LOOKUP *uri = X509_STORE_add_lookup(store, X509_LOOKUP_store())) X509_LOOKUP_add_store(uri, nullptr);
}

}  // namespace svcpp::core::net
