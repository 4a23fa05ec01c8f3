#include <gtest/gtest.h>

#include <map>

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
            client_ = std::make_unique<HttpClient>(io_.Executor(), TlsOptions{std::move(caFile)}, [] { return 5000; });
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

// A request that finds no idle connection while the client's TLS connection to the same origin is still in its
// handshake waits for that connection instead of opening a second one (connect() right after UpdateToken sends GET
// /gateway on the token check's connection). One request follows each opening connection; a third opens its own.
TEST_F(HttpClientTls, ARequestFollowsTheConnectionStillInItsHandshake) {
    TestServer server({}, Pki().localhostAndIp);
    RunOnIo(io_, [&] {
        client_ = std::make_unique<HttpClient>(io_.Executor(), TlsOptions{Pki().caFile}, [] { return 5000; });
    });
    PendingResponse first, second, third;
    RunOnIo(io_, [&] {  // all three start before the first handshake can end
        client_->Send(Get(Https("localhost", server) + "first"), first.Callback());
        client_->Send(Get(Https("localhost", server) + "second"), second.Callback());
        client_->Send(Get(Https("localhost", server) + "third"), third.Callback());
    });
    EXPECT_EQ(first.Get().status, 200);
    EXPECT_EQ(second.Get().status, 200);
    EXPECT_EQ(third.Get().status, 200);
    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), 3u);
    std::map<std::string, int> connectionOf;
    for (const auto &request : seen) connectionOf[request.target] = request.connection;
    EXPECT_EQ(connectionOf["/first"], connectionOf["/second"]);
    EXPECT_NE(connectionOf["/first"], connectionOf["/third"]);
    EXPECT_EQ(server.Accepted(), 2);
}

TEST_F(HttpClientTls, AFollowerWhoseLeaderFailsOpensItsOwnConnection) {
    // The leader's handshake fails (the certificate does not carry the address): its follower is not left waiting,
    // it opens a connection of its own, which fails the same way.
    TestServer server({}, Pki().localhostOnly);
    RunOnIo(io_, [&] {
        client_ = std::make_unique<HttpClient>(io_.Executor(), TlsOptions{Pki().caFile}, [] { return 5000; });
    });
    PendingResponse first, second;
    RunOnIo(io_, [&] {
        client_->Send(Get(Https("127.0.0.1", server) + "first"), first.Callback());
        client_->Send(Get(Https("127.0.0.1", server) + "second"), second.Callback());
    });
    const auto a = first.Get();
    const auto b = second.Get();
    EXPECT_EQ(a.status, 0);
    EXPECT_EQ(b.status, 0);
    EXPECT_TRUE(Mentions(a.networkError, "IP address mismatch")) << a.networkError;
    EXPECT_TRUE(Mentions(b.networkError, "IP address mismatch")) << b.networkError;
    EXPECT_EQ(server.Accepted(), 2);  // the follower tried on a connection of its own
}

// The trust store is loaded on the I/O thread before the client's first TLS connection, not when the client (its TLS
// context) is made: a CA file written after the client was created is the one its first request trusts.
TEST_F(HttpClientTls, TheCaFileIsReadByTheFirstConnectionNotWhenTheClientIsMade) {
    TestServer server({}, Pki().localhostAndIp);
    const TempPemFile late("late-ca");
    RunOnIo(io_, [&] {
        client_ = std::make_unique<HttpClient>(io_.Executor(), TlsOptions{late.path}, [] { return 5000; });
    });
    late.Write(Pki().caPem);
    const auto response = SendAndWait(*client_, Get(Https("127.0.0.1", server)));
    EXPECT_EQ(response.status, 200) << response.networkError;
}
