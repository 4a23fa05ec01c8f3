#include <gtest/gtest.h>

#include <mutex>

#include "net/http.hpp"
#include "net/io_thread.hpp"
#include "net/tls_context.hpp"
#include "net/websocket.hpp"
#include "net_test_client.hpp"
#include "net_test_server.hpp"

using svcpp::core::net::IoThread;
using svcpp::core::net::MakeWebSocketFactory;
using svcpp::core::net::TlsOptions;
using svcpp::core::net::WebSocket;
using svcpp::core::net::WebSocketFactory;
using svcpp::core::net::WebSocketHandlers;
using namespace svcpp::test;
using namespace std::chrono_literals;

namespace {

/** Opens one WebSocket on the I/O thread and records what its handlers report. */
class WebSocketTest : public ::testing::Test {
  protected:
    void TearDown() override {
        if (ws_) RunOnIo(io_, [this] { ws_.reset(); });
        io_.Stop();
    }

    /** onOpen and onMessage run on the I/O thread, where ws_ may be used. */
    void Open(const std::string &url, TlsOptions tls = {}, std::vector<std::string> early = {}) {
        RunOnIo(io_, [&] {
            factory_ = MakeWebSocketFactory(io_.Executor(), tls);
            ws_ = factory_(url, Handlers());
            for (auto &text : early) ws_->Send(text);
        });
    }

    static std::string WsUrl(const TestServer &server, const char *scheme = "ws", const char *host = "127.0.0.1") {
        return std::string(scheme) + "://" + host + ":" + std::to_string(server.Port()) + "/gateway?v=10";
    }

    bool WaitFor(const std::function<bool()> &pred) {
        return Eventually([&] {
            std::lock_guard lock(mutex_);
            return pred();
        });
    }
    bool WaitForClosed() {
        return WaitFor([this] { return closedCount_ > 0; });
    }

    IoThread io_{std::nullopt};
    WebSocketFactory factory_;
    std::shared_ptr<WebSocket> ws_;
    std::function<void()> onOpen_;
    std::function<void(const std::string &)> onMessage_;

    std::mutex mutex_;
    bool opened_ = false;
    std::vector<std::string> messages_;
    int closedCount_ = 0;
    int closedCode_ = -1;
    std::string closedReason_;

    WebSocketHandlers Handlers() {
        return {[this] {
                    {
                        std::lock_guard lock(mutex_);
                        opened_ = true;
                    }
                    if (onOpen_) onOpen_();
                },
                [this](std::string text) {
                    {
                        std::lock_guard lock(mutex_);
                        messages_.push_back(text);
                    }
                    if (onMessage_) onMessage_(text);
                },
                [this](int code, std::string reason) {
                    std::lock_guard lock(mutex_);
                    ++closedCount_;
                    closedCode_ = code;
                    closedReason_ = std::move(reason);
                }};
    }
};

}  // namespace

TEST_F(WebSocketTest, EchoesInOrderAndClosesNormallyOnce) {
    TestServer server;
    onOpen_ = [this] { ws_->Send("hello"); };
    Open(WsUrl(server), {}, {"queued before open"});
    ASSERT_TRUE(WaitFor([this] { return messages_.size() == 2; }));
    RunOnIo(io_, [this] { ws_->Close(1000, "bye"); });
    ASSERT_TRUE(WaitForClosed());
    ASSERT_TRUE(Eventually([&] { return server.Ended() == 1; }));

    std::lock_guard lock(mutex_);
    EXPECT_TRUE(opened_);
    EXPECT_EQ(messages_, (std::vector<std::string>{"queued before open", "hello"}));
    EXPECT_EQ(closedCount_, 1);
    EXPECT_EQ(closedCode_, 1000);
}

TEST_F(WebSocketTest, ServerCloseCodeIsReported) {
    TestServer server;
    onOpen_ = [this] { ws_->Send("close:4004"); };
    Open(WsUrl(server));
    ASSERT_TRUE(WaitForClosed());
    std::lock_guard lock(mutex_);
    EXPECT_EQ(closedCode_, 4004);
    EXPECT_EQ(closedReason_, "server closes");
}

TEST_F(WebSocketTest, ServerDroppingTheConnectionIsCode0) {
    TestServer server;
    onOpen_ = [this] { ws_->Send("drop"); };
    Open(WsUrl(server));
    ASSERT_TRUE(WaitForClosed());
    std::lock_guard lock(mutex_);
    EXPECT_EQ(closedCode_, 0);
    EXPECT_FALSE(closedReason_.empty());
}

TEST_F(WebSocketTest, AbortDropsTheConnectionWithCode0Once) {
    TestServer server;
    onOpen_ = [this] { ws_->Abort(); };
    Open(WsUrl(server));
    ASSERT_TRUE(WaitForClosed());
    ASSERT_TRUE(Eventually([&] { return server.Ended() == 1; }));
    RunOnIo(io_, [this] { ws_->Abort(); });  // a no-op now
    std::lock_guard lock(mutex_);
    EXPECT_EQ(closedCount_, 1);
    EXPECT_EQ(closedCode_, 0);
}

TEST_F(WebSocketTest, RefusedConnectionClosesWithoutOpening) {
    uint16_t closedPort;
    {
        TestServer gone;
        closedPort = gone.Port();
    }
    Open("ws://127.0.0.1:" + std::to_string(closedPort) + "/");
    ASSERT_TRUE(WaitForClosed());
    std::lock_guard lock(mutex_);
    EXPECT_FALSE(opened_);
    EXPECT_EQ(closedCode_, 0);
    EXPECT_NE(closedReason_.find("cannot connect"), std::string::npos) << closedReason_;
}

TEST_F(WebSocketTest, InvalidUrlClosesWithoutOpening) {
    Open("http://127.0.0.1/");
    ASSERT_TRUE(WaitForClosed());
    std::lock_guard lock(mutex_);
    EXPECT_FALSE(opened_);
    EXPECT_EQ(closedCode_, 0);
}

TEST_F(WebSocketTest, DroppingTheHandleInsideAHandlerIsSafeAndSilent) {
    TestServer server;
    onOpen_ = [this] { ws_->Send("hello"); };
    onMessage_ = [this](const std::string &) { ws_.reset(); };
    Open(WsUrl(server));
    ASSERT_TRUE(Eventually([&] { return server.Ended() == 1; }));
    RunOnIo(io_, [] {});  // anything the connection still had queued has run
    std::lock_guard lock(mutex_);
    EXPECT_EQ(messages_.size(), 1u);
    EXPECT_EQ(closedCount_, 0);
}

TEST_F(WebSocketTest, CloseThePeerNeverAnswersEndsWithOurCode) {
    TestServer server;
    onOpen_ = [this] {
        ws_->Send("mute");
        ws_->Close(4000, "leaving");
    };
    Open(WsUrl(server));
    ASSERT_TRUE(WaitForClosed());  // after the 2 s bound
    std::lock_guard lock(mutex_);
    EXPECT_EQ(closedCount_, 1);
    EXPECT_EQ(closedCode_, 4000);
    EXPECT_EQ(closedReason_, "leaving");
}

TEST_F(WebSocketTest, TlsEchoWithTheConfiguredCa) {
    TestServer server({}, Pki().localhostAndIp);
    onOpen_ = [this] { ws_->Send("over tls"); };
    Open(WsUrl(server, "wss", "localhost"), TlsOptions{Pki().caFile});
    ASSERT_TRUE(WaitFor([this] { return messages_.size() == 1; }));
    RunOnIo(io_, [this] { ws_->Close(1000, ""); });
    ASSERT_TRUE(WaitForClosed());
    std::lock_guard lock(mutex_);
    EXPECT_EQ(messages_[0], "over tls");
    EXPECT_EQ(closedCode_, 1000);
}

TEST_F(WebSocketTest, TlsServerThatCannotBeVerifiedNeverOpens) {
    TestServer server({}, Pki().localhostAndIp);
    Open(WsUrl(server, "wss"));
    ASSERT_TRUE(WaitForClosed());
    std::lock_guard lock(mutex_);
    EXPECT_FALSE(opened_);
    EXPECT_EQ(closedCode_, 0);
    EXPECT_NE(closedReason_.find("certificate verify failed"), std::string::npos) << closedReason_;
}

TEST_F(WebSocketTest, DroppingTheHandleAfterTheLoopStoppedIsSafeAndSilent) {
    TestServer server;
    Open(WsUrl(server));
    ASSERT_TRUE(WaitFor([this] { return opened_; }));
    io_.Stop();
    ws_.reset();  // the loop is gone: this thread may touch the connection now
    ASSERT_TRUE(Eventually([&] { return server.Ended() == 1; }));
    std::lock_guard lock(mutex_);
    EXPECT_EQ(closedCount_, 0);
}

// ---- Upgrading the HTTP client's idle keep-alive connection (the gateway's upgrade after GET /gateway) ----

namespace {

/** An HttpClient and a WebSocket factory built the way a Client builds them: one TLS context, the pool shared. */
class PooledUpgradeTest : public WebSocketTest {
  protected:
    void TearDown() override {
        RunOnIo(io_, [this] {
            ws_.reset();
            http_.reset();
        });
        WebSocketTest::TearDown();
    }

    /** One HTTP request to `httpUrl` (its connection stays idle in the pool), then a WebSocket to `wsUrl`. */
    void RequestThenOpen(const std::string &httpUrl, const std::string &wsUrl, TlsOptions tls = {}) {
        RunOnIo(io_, [&] {
            const auto context = svcpp::core::net::MakeTlsClientContext(tls);
            http_ = std::make_unique<svcpp::core::net::HttpClient>(io_.Executor(), context, [] { return 5000; });
            factory_ = svcpp::core::net::MakeWebSocketFactory(io_.Executor(), context, http_->IdleConnections());
        });
        const auto response = SendAndWait(*http_, Get(httpUrl));
        ASSERT_EQ(response.status, 200) << response.networkError;
        RunOnIo(io_, [&] { ws_ = factory_(wsUrl, Handlers()); });
    }

    static std::string HttpUrl(const TestServer &server, const char *scheme = "http", const char *host = "127.0.0.1") {
        return std::string(scheme) + "://" + host + ":" + std::to_string(server.Port()) + "/api/v10/gateway";
    }

    std::unique_ptr<svcpp::core::net::HttpClient> http_;
};

}  // namespace

TEST_F(PooledUpgradeTest, TheWebSocketUpgradesTheIdleConnectionOfTheSameOrigin) {
    TestServer server;
    onOpen_ = [this] { ws_->Send("on the pooled connection"); };
    RequestThenOpen(HttpUrl(server), WsUrl(server));
    ASSERT_TRUE(WaitFor([this] { return messages_.size() == 1; }));
    EXPECT_EQ(server.Accepted(), 1);  // no second TCP connection
    ASSERT_EQ(server.Requests().size(), 1u);
    EXPECT_EQ(server.Requests()[0].connection, 1);
    // The connection now belongs to the WebSocket: the next HTTP request opens a new one.
    EXPECT_EQ(SendAndWait(*http_, Get(HttpUrl(server))).status, 200);
    EXPECT_EQ(server.Accepted(), 2);
    std::lock_guard lock(mutex_);
    EXPECT_EQ(messages_[0], "on the pooled connection");
}

TEST_F(PooledUpgradeTest, OverTlsTheUpgradeSkipsTheSecondHandshake) {
    TestServer server({}, Pki().localhostAndIp);
    onOpen_ = [this] { ws_->Send("over the pooled tls connection"); };
    RequestThenOpen(HttpUrl(server, "https", "localhost"), WsUrl(server, "wss", "localhost"), TlsOptions{Pki().caFile});
    ASSERT_TRUE(WaitFor([this] { return messages_.size() == 1; }));
    EXPECT_EQ(server.Accepted(), 1);
    RunOnIo(io_, [this] { ws_->Close(1000, ""); });
    ASSERT_TRUE(WaitForClosed());
    std::lock_guard lock(mutex_);
    EXPECT_EQ(messages_[0], "over the pooled tls connection");
    EXPECT_EQ(closedCode_, 1000);
}

TEST_F(PooledUpgradeTest, AnotherOriginGetsAConnectionOfItsOwn) {
    TestServer api;
    TestServer gateway;
    onOpen_ = [this] { ws_->Send("elsewhere"); };
    RequestThenOpen(HttpUrl(api), WsUrl(gateway));
    ASSERT_TRUE(WaitFor([this] { return messages_.size() == 1; }));
    EXPECT_EQ(gateway.Accepted(), 1);
    // The API's idle connection is still in the pool: the next request reuses it.
    EXPECT_EQ(SendAndWait(*http_, Get(HttpUrl(api))).status, 200);
    EXPECT_EQ(api.Accepted(), 1);
}

TEST_F(PooledUpgradeTest, AnIdleConnectionTheServerClosedFallsBackToANewOne) {
    // The server closes after its reply without saying so (a keep-alive that expired): the pool still holds the
    // connection, the upgrade on it fails, and the WebSocket opens once more on a connection of its own.
    TestServer server([](const ServerRequest &) { return ServerReply{.closeAfter = true}; });
    onOpen_ = [this] { ws_->Send("after the fallback"); };
    RequestThenOpen(HttpUrl(server), WsUrl(server));
    ASSERT_TRUE(WaitFor([this] { return messages_.size() == 1; }));
    EXPECT_EQ(server.Accepted(), 2);
    std::lock_guard lock(mutex_);
    EXPECT_EQ(closedCount_, 0);
    EXPECT_EQ(messages_[0], "after the fallback");
}
