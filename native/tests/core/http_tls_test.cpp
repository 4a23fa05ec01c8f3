#include <gtest/gtest.h>

#include "net/http.hpp"
#include "net/io_thread.hpp"
#include "net_test_client.hpp"
#include "net_test_server.hpp"

using svcpp::core::net::HttpClient;
using svcpp::core::net::HttpResponse;
using svcpp::core::net::IoThread;
using svcpp::core::net::TlsOptions;
using namespace svcpp::test;

namespace {

class HttpClientTls : public ::testing::Test {
protected:
    void TearDown() override {
        RunOnIo(io_, [this] { client_.reset(); });
    }

    HttpResponse Fetch(const std::string &url, std::string caFile) {
        RunOnIo(io_, [&] {
            client_ = std::make_unique<HttpClient>(io_.Context(), TlsOptions{std::move(caFile)}, [] { return 5000; });
        });
        return SendAndWait(*client_, Get(url));
    }

    static std::string Https(const std::string &host, const TestServer &server) {
        return "https://" + host + ":" + std::to_string(server.Port()) + "/";
    }

    IoThread io_{std::nullopt};
    std::unique_ptr<HttpClient> client_;
};

bool Mentions(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_F(HttpClientTls, TrustsTheConfiguredCaByAddressAndByName) {
    TestServer server({}, Pki().localhostAndIp);
    for (const char *host : {"127.0.0.1", "localhost"}) {
        const auto response = Fetch(Https(host, server), Pki().caFile);
        EXPECT_EQ(response.status, 200) << host << ": " << response.networkError;
    }
}

TEST_F(HttpClientTls, RejectsACertificateFromAnUnknownCa) {
    TestServer server({}, Pki().localhostAndIp);
    const auto response = Fetch(Https("127.0.0.1", server), "");
    EXPECT_EQ(response.status, 0);
    EXPECT_TRUE(Mentions(response.networkError, "certificate verify failed")) << response.networkError;
}

TEST_F(HttpClientTls, RejectsACertificateThatDoesNotNameTheAddress) {
    TestServer server({}, Pki().localhostOnly);
    const auto response = Fetch(Https("127.0.0.1", server), Pki().caFile);
    EXPECT_EQ(response.status, 0);
    EXPECT_TRUE(Mentions(response.networkError, "IP address mismatch")) << response.networkError;
}

TEST_F(HttpClientTls, RejectsACertificateThatDoesNotNameTheHost) {
    TestServer server({}, Pki().ipOnly);
    const auto response = Fetch(Https("localhost", server), Pki().caFile);
    EXPECT_EQ(response.status, 0);
    EXPECT_TRUE(Mentions(response.networkError, "hostname mismatch")) << response.networkError;
}

TEST_F(HttpClientTls, UnreadableCaFileFailsTlsRequestsInsteadOfTrustingLess) {
    TestServer server({}, Pki().localhostAndIp);
    const auto response = Fetch(Https("127.0.0.1", server), "/nonexistent/svcpp-ca.pem");
    EXPECT_EQ(response.status, 0);
    EXPECT_TRUE(Mentions(response.networkError, "/nonexistent/svcpp-ca.pem")) << response.networkError;
    EXPECT_EQ(server.Accepted(), 0);
}
