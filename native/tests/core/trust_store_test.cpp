// net::SharedTrustStore: one store per trust for the whole process, rebuilt when the CA file changes, an error (never a
// smaller trust) when it cannot be read.
#include <gtest/gtest.h>
#include <openssl/x509_vfy.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "net/trust_store.hpp"
#include "net_test_pki.hpp"

using svcpp::core::net::SharedTrustStore;
using svcpp::test::Pki;

namespace {

std::string ReadFile(const std::string &path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/** A file of its own in the temporary directory, removed with the object. */
struct TempFile {
    explicit TempFile(const std::string &tag)
        : path((std::filesystem::temp_directory_path() / ("svcpp-trust-" + tag + "-" + std::to_string(getpid()) + ".pem")).string()) {}
    ~TempFile() { std::filesystem::remove(path); }
    void Write(const std::string &text) const { std::ofstream(path, std::ios::trunc) << text; }
    std::string path;
};

/** Whether the store holds a certificate whose subject's common name is `name`. */
bool HoldsCertificateNamed(X509_STORE *store, const std::string &name) {
    STACK_OF(X509_OBJECT) *objects = X509_STORE_get0_objects(store);
    for (int i = 0; i < sk_X509_OBJECT_num(objects); ++i) {
        X509 *cert = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objects, i));
        if (!cert) continue;
        char common[256] = {};
        if (X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, common, sizeof common) > 0 && name == common) return true;
    }
    return false;
}

int CountCertificates(X509_STORE *store) {
    STACK_OF(X509_OBJECT) *objects = X509_STORE_get0_objects(store);
    int count = 0;
    for (int i = 0; i < sk_X509_OBJECT_num(objects); ++i) count += X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objects, i)) != nullptr;
    return count;
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
    // The certificates OpenSSL's own default paths load (the bundle; the directory is consulted lazily by both).
    std::unique_ptr<X509_STORE, decltype(&X509_STORE_free)> reference(X509_STORE_new(), X509_STORE_free);
    X509_STORE_set_default_paths(reference.get());
    EXPECT_EQ(CountCertificates(first.store.get()), CountCertificates(reference.get()));
}

TEST(SharedTrustStore, ACaFileThatChangedIsReadAgain) {
    TempFile file("changed");
    file.Write("");
    const auto empty = SharedTrustStore(file.path);
    EXPECT_FALSE(empty.store);  // no certificate in it: an error, not the system roots alone
    file.Write(ReadFile(Pki().caFile));
    const auto withCa = SharedTrustStore(file.path);
    ASSERT_TRUE(withCa.store) << withCa.error;
    EXPECT_TRUE(HoldsCertificateNamed(withCa.store.get(), "svcpp test CA"));
    file.Write(ReadFile(Pki().caFile) + ReadFile(Pki().caFile));  // another size: another version of the file
    const auto again = SharedTrustStore(file.path);
    ASSERT_TRUE(again.store) << again.error;
    EXPECT_NE(again.store.get(), withCa.store.get());
}

TEST(SharedTrustStore, AStoreNoClientHoldsAnyMoreIsBuiltAgainWhenNeeded) {
    TempFile file("released");
    file.Write(ReadFile(Pki().caFile));
    { ASSERT_TRUE(SharedTrustStore(file.path).store); }
    const auto rebuilt = SharedTrustStore(file.path);
    ASSERT_TRUE(rebuilt.store) << rebuilt.error;
    EXPECT_TRUE(HoldsCertificateNamed(rebuilt.store.get(), "svcpp test CA"));
}

TEST(SharedTrustStore, AnUnreadableOrEmptyCaFileIsAnErrorNamingIt) {
    const auto missing = SharedTrustStore("/nonexistent/svcpp-ca.pem");
    EXPECT_FALSE(missing.store);
    EXPECT_NE(missing.error.find("/nonexistent/svcpp-ca.pem"), std::string::npos) << missing.error;
    TempFile garbage("garbage");
    garbage.Write("not a certificate\n");
    const auto unusable = SharedTrustStore(garbage.path);
    EXPECT_FALSE(unusable.store);
    EXPECT_NE(unusable.error.find(garbage.path), std::string::npos) << unusable.error;
}
