// net::SharedTrustStore: one store per trust for the whole process, rebuilt when the CA file changes, an error (never a
// smaller trust) when it cannot be read.
#include <gtest/gtest.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <string>
#include <vector>

#include "net/trust_store.hpp"
#include "net_test_pki.hpp"
#include "system_roots_reference.hpp"

using svcpp::core::net::SharedTrustStore;
using svcpp::test::Pki;
using svcpp::test::TempPemFile;

namespace {

std::vector<X509 *> CertificatesOf(X509_STORE *store) {
    std::vector<X509 *> certs;
    STACK_OF(X509_OBJECT) *objects = X509_STORE_get0_objects(store);
    for (int i = 0; i < sk_X509_OBJECT_num(objects); ++i) {
        if (X509 *cert = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objects, i))) certs.push_back(cert);
    }
    return certs;
}

/** Whether the store holds a certificate whose subject's common name is `name`. */
bool HoldsCertificateNamed(X509_STORE *store, const std::string &name) {
    const auto certs = CertificatesOf(store);
    return std::any_of(certs.begin(), certs.end(), [&name](X509 *cert) {
        char common[256] = {};
        return X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, common, sizeof common) > 0 &&
               name == common;
    });
}

}  // namespace

TEST(SharedTrustStore, ClientsOfOneCaFileShareOneStoreThatHoldsItsCertificate) {
    const auto first = SharedTrustStore(Pki().caFile);
    const auto second = SharedTrustStore(Pki().caFile);
    ASSERT_TRUE(first.store) << first.error;
    EXPECT_EQ(first.store.get(), second.store.get());
    EXPECT_TRUE(HoldsCertificateNamed(first.store.get(), "svcpp test CA"));
}

TEST(SharedTrustStore, TheSystemRootsAloneAreOneSharedStoreWithoutTheTestCa) {
    const auto first = SharedTrustStore("");
    const auto second = SharedTrustStore("");
    ASSERT_TRUE(first.store) << first.error;
    EXPECT_EQ(first.store.get(), second.store.get());
    EXPECT_FALSE(HoldsCertificateNamed(first.store.get(), "svcpp test CA"));
    EXPECT_NE(first.store.get(), SharedTrustStore(Pki().caFile).store.get());
    // Every root the system trusts, as the system's own interface lists them (system_roots_reference_*.cpp).
    EXPECT_EQ(CertificatesOf(first.store.get()).size(), svcpp::test::SystemRootCount());
}

TEST(SharedTrustStore, ACaFileThatChangedIsReadAgain) {
    TempPemFile file("trust-changed");
    file.Write("");
    const auto empty = SharedTrustStore(file.path);
    EXPECT_FALSE(empty.store);  // no certificate in it: an error, not the system roots alone
    file.Write(Pki().caPem);
    const auto withCa = SharedTrustStore(file.path);
    ASSERT_TRUE(withCa.store) << withCa.error;
    EXPECT_TRUE(HoldsCertificateNamed(withCa.store.get(), "svcpp test CA"));
    file.Write(Pki().caPem + Pki().caPem);  // another size: another version of the file
    const auto again = SharedTrustStore(file.path);
    ASSERT_TRUE(again.store) << again.error;
    EXPECT_NE(again.store.get(), withCa.store.get());
}

TEST(SharedTrustStore, AStoreNoClientHoldsAnyMoreIsBuiltAgainWhenNeeded) {
    TempPemFile file("trust-released");
    file.Write(Pki().caPem);
    { ASSERT_TRUE(SharedTrustStore(file.path).store); }
    const auto rebuilt = SharedTrustStore(file.path);
    ASSERT_TRUE(rebuilt.store) << rebuilt.error;
    EXPECT_TRUE(HoldsCertificateNamed(rebuilt.store.get(), "svcpp test CA"));
}

TEST(SharedTrustStore, AnUnreadableOrEmptyCaFileIsAnErrorNamingIt) {
    const auto missing = SharedTrustStore("/nonexistent/svcpp-ca.pem");
    EXPECT_FALSE(missing.store);
    EXPECT_NE(missing.error.find("/nonexistent/svcpp-ca.pem"), std::string::npos) << missing.error;
    TempPemFile garbage("trust-garbage");
    garbage.Write("not a certificate\n");
    const auto unusable = SharedTrustStore(garbage.path);
    EXPECT_FALSE(unusable.store);
    EXPECT_NE(unusable.error.find(garbage.path), std::string::npos) << unusable.error;
}
