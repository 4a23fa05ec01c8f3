#include "net/trust_store.hpp"

#include "files/utf8_file.hpp"
#include "net/system_roots.hpp"

#include <openssl/err.h>
#include <openssl/x509_vfy.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace svcpp::core::net {

namespace {

/** The default bundle's certificates and CRLs, decoded once; referenced for the life of the process. */
struct SystemBundle {
    std::vector<X509 *> certs;
    std::vector<X509_CRL *> crls;
};

const SystemBundle &SystemRoots() {
    static const SystemBundle *const bundle = [] {
        auto *loaded = new SystemBundle();  // never freed: every store of the process references its objects
        if (X509_STORE *scratch = X509_STORE_new()) {
            LoadSystemRoots(scratch);  // net/system_roots.hpp: OpenSSL's default bundle, or the Windows ROOT store
            STACK_OF(X509_OBJECT) *objects = X509_STORE_get0_objects(scratch);
            for (int i = 0; i < sk_X509_OBJECT_num(objects); ++i) {
                X509_OBJECT *object = sk_X509_OBJECT_value(objects, i);
                if (X509 *cert = X509_OBJECT_get0_X509(object); cert && X509_up_ref(cert) == 1)
                    loaded->certs.push_back(cert);
                if (X509_CRL *crl = X509_OBJECT_get0_X509_CRL(object); crl && X509_CRL_up_ref(crl) == 1)
                    loaded->crls.push_back(crl);
            }
            X509_STORE_free(scratch);
        }
        ERR_clear_error();
        return loaded;
    }();
    return *bundle;
}

std::string LastOpenSslError() {
    const unsigned long code = ERR_peek_last_error();
    const char *reason = code ? ERR_reason_error_string(code) : nullptr;
    ERR_clear_error();
    return reason ? reason : "unknown error";
}

/** A new store: the system roots, the default directory and store looked up lazily, then caFile. */
TrustStore BuildStore(const std::string &caFile) {
    std::shared_ptr<X509_STORE> store(X509_STORE_new(), X509_STORE_free);
    if (!store) return {nullptr, "cannot create a certificate store"};
    const SystemBundle &roots = SystemRoots();
    for (X509 *cert : roots.certs) X509_STORE_add_cert(store.get(), cert);
    for (X509_CRL *crl : roots.crls) X509_STORE_add_crl(store.get(), crl);
    AddSystemLookups(store.get());
    ERR_clear_error();
    if (!caFile.empty() && X509_STORE_load_file(store.get(), caFile.c_str()) != 1) {
        return {nullptr, "cannot load the CA file " + caFile + ": " + LastOpenSslError()};
    }
    return {std::move(store), {}};
}

/** Which version of a CA file a store was built from; a file that cannot be read has none (never cached). */
using FileVersion = files::FileStamp;

bool ReadVersion(const std::string &path, FileVersion &version) { return files::ReadFileStamp(path, version); }

struct CachedStore {
    FileVersion version;
    std::weak_ptr<X509_STORE> store;  // alive while a client's TLS context holds it
};

}  // namespace

TrustStore SharedTrustStore(const std::string &caFile) {
    struct Cache {
        std::mutex mutex;
        std::map<std::string, CachedStore> stores;  // by CA file path; "" = the system roots alone
    };
    // Leaked on purpose, like the I/O pool: an I/O thread may still open a connection while statics are destroyed.
    static Cache *const cache = new Cache();

    FileVersion version;
    if (!caFile.empty() && !ReadVersion(caFile, version)) return BuildStore(caFile);  // reports why it cannot be read
    std::lock_guard lock(cache->mutex);
    if (auto found = cache->stores.find(caFile); found != cache->stores.end() && found->second.version == version) {
        if (auto store = found->second.store.lock()) return {std::move(store), {}};
    }
    TrustStore built = BuildStore(caFile);
    if (!built.store) return built;
    std::erase_if(cache->stores, [](const auto &entry) { return entry.second.store.expired(); });
    cache->stores[caFile] = CachedStore{version, built.store};
    return built;
}

}  // namespace svcpp::core::net
