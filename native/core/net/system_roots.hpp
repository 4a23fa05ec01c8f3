// Where the system's trusted root certificates come from, one implementation per system:
//   system_roots_posix.cpp    OpenSSL's default bundle (or SSL_CERT_FILE), plus its default directory and store
//                             looked up by subject when a chain needs them (what SSL_CTX_set_default_verify_paths
//                             does);
//   system_roots_windows.cpp  the current user's and the machine's ROOT certificate store (CertOpenSystemStoreW),
//                             as Windows' own TLS clients trust; OpenSSL has no default location there.
#pragma once

struct x509_store_st;

namespace svcpp::core::net {

/** Adds the system's root certificates (and CRLs) to store, decoded at once; called once per process. */
void LoadSystemRoots(x509_store_st *store);

/** Adds the lookups a store consults lazily for certificates not loaded up front (POSIX: the hashed directory). */
void AddSystemLookups(x509_store_st *store);

}  // namespace svcpp::core::net
