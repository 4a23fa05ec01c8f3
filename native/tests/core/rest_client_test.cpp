#include <gtest/gtest.h>

#include <mutex>

#include "net/http.hpp"
#include "net/io_thread.hpp"
#include "net_test_client.hpp"
#include "net_test_server.hpp"

using svcpp::core::net::HttpClient;
using svcpp::core::net::HttpRequest;
using svcpp::core::net::IoThread;
using svcpp::core::net::RestClient;
using svcpp::core::net::TlsOptions;
using namespace svcpp::test;
using namespace std::chrono_literals;

namespace {

ServerReply RateLimited(const std::string &retryAfter, bool global) {
    return ServerReply{429,
                       R"({"message":"You are being rate limited.","retry_after":)" + retryAfter + R"(,"global":)" +
                           (global ? "true" : "false") + "}",
                       {{"Retry-After", "1"}, {"Content-Type", "application/json"}}};
}

ServerReply WithBucket(const std::string &remaining, const std::string &resetAfter) {
    return ServerReply{200,
                       "{}",
                       {{"X-RateLimit-Bucket", "b1"},
                        {"X-RateLimit-Limit", "5"},
                        {"X-RateLimit-Remaining", remaining},
                        {"X-RateLimit-Reset-After", resetAfter}}};
}

class RestClientTest : public ::testing::Test {
  protected:
    void SetUp() override {
        RunOnIo(io_, [this] {
            http_ = std::make_unique<HttpClient>(io_.Executor(), TlsOptions{}, [] { return 5000; });
            rest_ = std::make_unique<RestClient>(io_.Executor(), *http_, [this](std::string line) {
                std::lock_guard lock(mutex_);
                logs_.push_back(std::move(line));
            });
        });
    }
    void TearDown() override {
        RunOnIo(io_, [this] {
            rest_.reset();
            http_.reset();
        });
    }

    std::vector<std::string> Logs() {
        std::lock_guard lock(mutex_);
        return logs_;
    }

    /** The "<route> waits <seconds> s" lines: one each time a queue's timer is armed. */
    std::vector<std::string> WaitLines() {
        std::vector<std::string> lines;
        for (auto &line : Logs()) {
            if (line.find(" waits ") != std::string::npos) lines.push_back(std::move(line));
        }
        return lines;
    }

    static HttpRequest Request(const TestServer &server, const std::string &target, const std::string &route) {
        return Get("http://127.0.0.1:" + std::to_string(server.Port()) + target, route);
    }

    static std::chrono::milliseconds Gap(const ServerRequest &first, const ServerRequest &second) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(second.receivedAt - first.receivedAt);
    }

    IoThread io_{std::nullopt};
    std::unique_ptr<HttpClient> http_;
    std::unique_ptr<RestClient> rest_;
    std::mutex mutex_;
    std::vector<std::string> logs_;
};

}  // namespace

TEST_F(RestClientTest, RetriesA429AfterItsRetryAfter) {
    int served = 0;
    TestServer server([&](const ServerRequest &) { return ++served == 1 ? RateLimited("0.2", false) : ServerReply{}; });
    HttpRequest request = Request(server, "/users/@me", "GET /users/@me");
    request.headers = {{"Authorization", "Bearer secret-token"}};
    const auto response = SendAndWait(*rest_, request);

    EXPECT_EQ(response.status, 200);
    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_GE(Gap(seen[0], seen[1]), 150ms);  // retry_after is a protocol rule, not a performance figure
    const auto waits = WaitLines();
    ASSERT_EQ(waits.size(), 1u);
    EXPECT_NE(waits[0].find("GET /users/@me"), std::string::npos) << waits[0];
    for (const auto &line : Logs()) EXPECT_EQ(line.find("secret-token"), std::string::npos) << line;
}

TEST_F(RestClientTest, ExhaustedBucketHoldsItsRouteUntilTheReset) {
    int served = 0;
    TestServer server([&](const ServerRequest &request) {
        if (request.target == "/other") return ServerReply{};
        return ++served == 1 ? WithBucket("0", "0.200") : WithBucket("4", "1.000");
    });
    PendingResponse first, second, other;
    rest_->Send(Request(server, "/users/1", "GET /users/:id"), first.Callback());
    rest_->Send(Request(server, "/users/2", "GET /users/:id"), second.Callback());
    EXPECT_EQ(first.Get().status, 200);
    rest_->Send(Request(server, "/other", "GET /other"), other.Callback());
    EXPECT_EQ(other.Get().status, 200);
    EXPECT_EQ(second.Get().status, 200);

    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].target, "/users/1");
    EXPECT_EQ(seen[1].target, "/other");  // another route is not held by this bucket
    EXPECT_EQ(seen[2].target, "/users/2");
    EXPECT_GE(Gap(seen[0], seen[2]), 150ms);
}

TEST_F(RestClientTest, RequestsOfOneRouteGoOutInOrder) {
    TestServer server;
    std::vector<PendingResponse> responses(5);
    for (size_t i = 0; i < responses.size(); ++i) {
        rest_->Send(Request(server, "/items/" + std::to_string(i), "POST /items"), responses[i].Callback());
    }
    for (auto &response : responses) EXPECT_EQ(response.Get().status, 200);
    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), responses.size());
    for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i].target, "/items/" + std::to_string(i));
}

TEST_F(RestClientTest, RetryAfterBeyondTheMaximumIsReported) {
    TestServer server([](const ServerRequest &) { return RateLimited("120.0", false); });
    const auto response = SendAndWait(*rest_, Request(server, "/slow", ""));
    EXPECT_EQ(response.status, 429);
    EXPECT_EQ(server.Requests().size(), 1u);
}

TEST_F(RestClientTest, GlobalLimitPausesEveryRoute) {
    int limited = 0;
    TestServer server([&](const ServerRequest &request) {
        if (request.target == "/a" && ++limited == 1) return RateLimited("0.2", true);
        return ServerReply{};
    });
    PendingResponse a, b;
    rest_->Send(Request(server, "/a", "GET /a"), a.Callback());
    ASSERT_TRUE(Eventually([&] { return WaitLines().size() == 1; }));  // /a waits for its retry
    rest_->Send(Request(server, "/b", "GET /b"), b.Callback());
    EXPECT_EQ(a.Get().status, 200);
    EXPECT_EQ(b.Get().status, 200);

    const auto seen = server.Requests();
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].target, "/a");
    for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(Gap(seen[0], seen[i]), 150ms) << seen[i].target;
}

TEST_F(RestClientTest, ShutdownCompletesWaitingRequests) {
    TestServer server([](const ServerRequest &) { return WithBucket("0", "30.000"); });
    EXPECT_EQ(SendAndWait(*rest_, Request(server, "/users/1", "GET /users/:id")).status, 200);
    PendingResponse waiting;
    rest_->Send(Request(server, "/users/2", "GET /users/:id"), waiting.Callback());
    ASSERT_TRUE(Eventually([&] { return WaitLines().size() == 1; }));

    RunOnIo(io_, [this] { rest_->Shutdown(); });
    EXPECT_EQ(waiting.Get().networkError, "shut down");
    EXPECT_EQ(SendAndWait(*rest_, Request(server, "/users/3", "GET /users/:id")).networkError, "shut down");
    EXPECT_EQ(server.Requests().size(), 1u);
}
