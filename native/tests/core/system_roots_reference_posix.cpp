#include "system_roots_reference.hpp"

#include <openssl/x509_vfy.h>

#include <memory>

namespace svcpp::test {

std::size_t SystemRootCount() {
    // The bundle OpenSSL's default paths name (its hashed directory is consulted lazily, by svcpp's store as well).
    std::unique_ptr<X509_STORE, decltype(&X509_STORE_free)> store(X509_STORE_new(), X509_STORE_free);
    X509_STORE_set_default_paths(store.get());
    std::size_t count = 0;
    STACK_OF(X509_OBJECT) *objects = X509_STORE_get0_objects(store.get());
    for (int i = 0; i < sk_X509_OBJECT_num(objects); ++i) {
        if (X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objects, i))) ++count;
    }
    return count;
}

}  // namespace svcpp::test
