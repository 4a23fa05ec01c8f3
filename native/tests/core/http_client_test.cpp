#include <gtest/gtest.h>

#include "net/http.hpp"
#include "net/io_thread.hpp"
#include "net_test_client.hpp"
#include "net_test_server.hpp"

using svcpp::core::net::HttpClient;
using svcpp::core::net::HttpRequest;
using svcpp::core::net::IoThread;
using svcpp::core::net::TlsOptions;
using namespace svcpp::test;

namespace {

class HttpClientTest : public ::testing::Test {
  protected:
    void TearDown() override {
        if (client_) RunOnIo(io_, [this] { client_.reset(); });
    }

    HttpClient &Client(int32_t timeoutMs = 5000) {
        RunOnIo(io_, [&] {
            client_ = std::make_unique<HttpClient>(io_.Executor(), TlsOptions{}, [timeoutMs] { return timeoutMs; });
        });
        return *client_;
    }

    static std::string Url(const TestServer &server, const std::string &target = "/") {
        return "http://127.0.0.1:" + std::to_string(server.Port()) + target;
    }

    IoThread io_{std::nullopt};
    std::unique_ptr<HttpClient> client_;
};

}  // namespace

TEST_F(HttpClientTest, ReturnsStatusLowerCasedHeadersAndBody) {
    TestServer server([](const ServerRequest &) { return ServerReply{201, "hello", {{"X-Custom", "Value"}}}; });
    HttpRequest request = Get(Url(server, "/things?x=1"));
    request.headers = {{"Authorization", "Bearer abc"}};
    const auto response = SendAndWait(Client(), request);

    EXPECT_EQ(response.status, 201);
    EXPECT_EQ(response.body, "hello");
    EXPECT_EQ(response.Header("x-custom"), "Value");
    EXPECT_EQ(response.networkError, "");
    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].method, "GET");
    EXPECT_EQ(seen[0].target, "/things?x=1");
    EXPECT_EQ(seen[0].headers.at("host"), "127.0.0.1:" + std::to_string(server.Port()));
    EXPECT_TRUE(seen[0].headers.at("user-agent").starts_with("svcpp/"));
    EXPECT_EQ(seen[0].headers.at("authorization"), "Bearer abc");
}

TEST_F(HttpClientTest, PostCarriesContentLengthEvenWhenEmpty) {
    TestServer server;
    auto &client = Client();
    HttpRequest post = Get(Url(server));
    post.method = "POST";
    post.body = R"({"a":1})";
    EXPECT_EQ(SendAndWait(client, post).status, 200);
    post.body.clear();
    EXPECT_EQ(SendAndWait(client, post).status, 200);

    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].body, R"({"a":1})");
    EXPECT_EQ(seen[0].headers.at("content-length"), "7");
    EXPECT_EQ(seen[1].headers.at("content-length"), "0");
}

TEST_F(HttpClientTest, SequentialRequestsShareOneKeepAliveConnection) {
    TestServer server;
    auto &client = Client();
    EXPECT_EQ(SendAndWait(client, Get(Url(server))).status, 200);
    EXPECT_EQ(SendAndWait(client, Get(Url(server))).status, 200);
    EXPECT_EQ(server.Accepted(), 1);
    EXPECT_EQ(server.Requests().size(), 2u);
}

TEST_F(HttpClientTest, ServerThatNeverAnswersTimesOut) {
    TestServer server([](const ServerRequest &) { return ServerReply{.silent = true}; });
    const auto response = SendAndWait(Client(200), Get(Url(server)));
    EXPECT_EQ(response.status, 0);
    EXPECT_EQ(response.networkError, "timed out");
}

TEST_F(HttpClientTest, RefusedConnectionIsANetworkError) {
    uint16_t closedPort;
    {
        TestServer gone;
        closedPort = gone.Port();
    }
    const auto response = SendAndWait(Client(), Get("http://127.0.0.1:" + std::to_string(closedPort) + "/"));
    EXPECT_EQ(response.status, 0);
    EXPECT_NE(response.networkError.find("cannot connect"), std::string::npos) << response.networkError;
}

TEST_F(HttpClientTest, IdleConnectionClosedByTheServerIsReplacedTransparently) {
    int served = 0;
    TestServer server([&served](const ServerRequest &) { return ServerReply{.closeAfter = ++served == 1}; });
    auto &client = Client();
    EXPECT_EQ(SendAndWait(client, Get(Url(server))).status, 200);
    ASSERT_TRUE(Eventually([&] { return server.Ended() == 1; }));  // the pooled connection is dead now

    const auto response = SendAndWait(client, Get(Url(server)));
    EXPECT_EQ(response.status, 200) << response.networkError;
    EXPECT_EQ(server.Accepted(), 2);
    EXPECT_EQ(server.Requests().size(), 2u);
}

TEST_F(HttpClientTest, ShutdownCompletesPendingRequestsAndRefusesNewOnes) {
    TestServer server([](const ServerRequest &) { return ServerReply{.silent = true}; });
    auto &client = Client();
    PendingResponse pending;
    client.Send(Get(Url(server)), pending.Callback());
    ASSERT_TRUE(Eventually([&] { return server.Requests().size() == 1; }));

    RunOnIo(io_, [&] { client.Shutdown(); });
    const auto response = pending.Get();
    EXPECT_EQ(response.status, 0);
    EXPECT_EQ(response.networkError, "shut down");
    EXPECT_EQ(SendAndWait(client, Get(Url(server))).networkError, "shut down");
}

TEST_F(HttpClientTest, InvalidUrlFailsWithoutTouchingTheNetwork) {
    auto &client = Client();
    for (const char *url : {"not a url", "ws://127.0.0.1/", "ftp://127.0.0.1/"}) {
        const auto response = SendAndWait(client, Get(url));
        EXPECT_EQ(response.status, 0) << url;
        EXPECT_FALSE(response.networkError.empty()) << url;
    }
}

TEST_F(HttpClientTest, DestroyedAfterTheLoopStoppedCompletesItsRequestOnce) {
    TestServer server([](const ServerRequest &) { return ServerReply{.silent = true}; });
    PendingResponse pending;
    Client().Send(Get(Url(server)), pending.Callback());
    ASSERT_TRUE(Eventually([&] { return server.Requests().size() == 1; }));
    io_.Stop();
    client_.reset();  // the loop is gone: this thread may touch the client now
    EXPECT_EQ(pending.Get().networkError, "shut down");
}

// RestClient's rate-limit gate: a request whose clearToWrite says no by the time it would be written is not sent.
TEST_F(HttpClientTest, RequestHeldByItsGateIsNotWrittenAndLeavesTheConnectionReusable) {
    TestServer server;
    auto &client = Client();
    ASSERT_EQ(SendAndWait(client, Get(Url(server, "/first"))).status, 200);  // one pooled connection

    int asked = 0;
    HttpRequest held = Get(Url(server, "/held"));
    held.clearToWrite = [&asked] {
        ++asked;
        return false;
    };
    const auto response = SendAndWait(client, held);
    EXPECT_TRUE(response.held);
    EXPECT_EQ(response.status, 0);
    EXPECT_EQ(asked, 1);

    HttpRequest cleared = Get(Url(server, "/cleared"));
    cleared.clearToWrite = [] { return true; };
    EXPECT_EQ(SendAndWait(client, cleared).status, 200);
    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), 2u);  // /held never reached the server
    EXPECT_EQ(seen[1].target, "/cleared");
    EXPECT_EQ(seen[1].connection, seen[0].connection);  // the held request handed its connection back unused
    EXPECT_EQ(server.Accepted(), 1);
}
