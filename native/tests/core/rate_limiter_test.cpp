// RateLimiter's rules with a fake clock: every case where a request could go out during a wait the platform had
// told (the 429 soak, bench/soak-429.ts, checks the same end to end).
#include <gtest/gtest.h>

#include "net/http.hpp"
#include "net/rate_limiter.hpp"

using svcpp::core::net::HttpResponse;
using svcpp::core::net::RateLimiter;
using namespace std::chrono_literals;

namespace {

const RateLimiter::TimePoint t0 = RateLimiter::TimePoint{} + 1000s;  // the fake clock's start

HttpResponse Answer(int status, std::map<std::string, std::string> headers, std::string body = "{}") {
    HttpResponse response;
    response.status = status;
    response.headers = std::move(headers);
    response.body = std::move(body);
    return response;
}

HttpResponse BucketAnswer(const std::string &bucket, const std::string &remaining, const std::string &resetAfter) {
    return Answer(200, {{"x-ratelimit-bucket", bucket},
                        {"x-ratelimit-remaining", remaining},
                        {"x-ratelimit-reset-after", resetAfter}});
}

HttpResponse Limited(const std::string &retryAfter, bool global, const std::string &bucket = "") {
    std::map<std::string, std::string> headers{{"retry-after", "1"}};
    if (global) headers["x-ratelimit-global"] = "true";
    if (!bucket.empty()) {
        headers["x-ratelimit-bucket"] = bucket;
        headers["x-ratelimit-remaining"] = "0";
        headers["x-ratelimit-reset-after"] = retryAfter;
    }
    return Answer(429, std::move(headers),
                  R"({"message":"You are being rate limited.","retry_after":)" + retryAfter + R"(,"global":)" +
                      (global ? "true" : "false") + "}");
}

}  // namespace

TEST(RateLimiterTest, NothingKnownMeansNoWait) {
    RateLimiter limits;
    EXPECT_LE(limits.ReadyAt("GET /a"), t0);
    EXPECT_TRUE(limits.ClearToWrite("GET /a", t0));
    EXPECT_EQ(limits.QueueKeyOf("GET /a"), "route GET /a");
}

TEST(RateLimiterTest, GlobalWaitHoldsEveryRouteIncludingRequestsAlreadyDispatched) {
    RateLimiter limits;
    limits.CountDispatched("GET /b");  // /b was handed to the HTTP layer before /a's answer came
    const auto learned = limits.Learn("GET /a", Limited("0.5", true), t0);
    EXPECT_EQ(learned.next, RateLimiter::Next::Retry);
    EXPECT_TRUE(learned.toldWait);

    EXPECT_EQ(limits.ReadyAt("GET /a"), t0 + 500ms);
    EXPECT_EQ(limits.ReadyAt("GET /b"), t0 + 500ms);
    EXPECT_FALSE(limits.ClearToWrite("GET /b", t0 + 499ms));  // held at the gate, not written into the wait
    EXPECT_TRUE(limits.ClearToWrite("GET /b", t0 + 500ms));
}

TEST(RateLimiterTest, GlobalFlagInTheHeaderAloneIsGlobal) {
    RateLimiter limits;
    auto answer = Limited("0.5", false);
    answer.headers["x-ratelimit-global"] = "true";
    limits.Learn("GET /a", answer, t0);
    EXPECT_EQ(limits.ReadyAt("GET /other"), t0 + 500ms);
}

TEST(RateLimiterTest, BucketWaitHoldsThatBucketOnly) {
    RateLimiter limits;
    limits.Learn("POST /m", Limited("0.3", false, "messages"), t0);
    EXPECT_EQ(limits.QueueKeyOf("POST /m"), "bucket messages");
    EXPECT_FALSE(limits.ClearToWrite("POST /m", t0 + 299ms));
    EXPECT_TRUE(limits.ClearToWrite("POST /m", t0 + 300ms));
    EXPECT_TRUE(limits.ClearToWrite("GET /other", t0));
    EXPECT_LE(limits.ReadyAt("GET /other"), t0);
}

TEST(RateLimiterTest, RetryAfterFromTheHeaderWhenTheBodySaysNothing) {
    RateLimiter limits;
    const auto learned = limits.Learn("GET /a", Answer(429, {{"retry-after", "2"}}, "not json"), t0);
    EXPECT_EQ(learned.next, RateLimiter::Next::Retry);
    EXPECT_EQ(limits.ReadyAt("GET /a"), t0 + 2s);
}

TEST(RateLimiterTest, A429WithoutAUsableWaitCompletesAndHoldsNothing) {
    RateLimiter limits;
    const auto learned = limits.Learn("GET /a", Answer(429, {{"retry-after", "soon"}}, R"({"retry_after":"x"})"), t0);
    EXPECT_EQ(learned.next, RateLimiter::Next::Complete);
    EXPECT_FALSE(learned.toldWait);
    EXPECT_TRUE(limits.ClearToWrite("GET /a", t0));
}

// A wait beyond the automatic retry is reported to the caller — and still honoured by every other request.
TEST(RateLimiterTest, WaitBeyondTheAutomaticRetryIsReportedAndStillHonoured) {
    RateLimiter limits;
    const auto learned = limits.Learn("GET /slow", Limited("120", false, "slow"), t0);
    EXPECT_EQ(learned.next, RateLimiter::Next::Complete);
    EXPECT_EQ(limits.ReadyAt("GET /slow"), t0 + 120s);
    EXPECT_FALSE(limits.ClearToWrite("GET /slow", t0 + 119s));

    limits.Learn("GET /a", Limited("90", true), t0);
    EXPECT_EQ(limits.ReadyAt("GET /b"), t0 + 90s);
}

TEST(RateLimiterTest, ExhaustedBucketWaitsForItsReset) {
    RateLimiter limits;
    const auto learned = limits.Learn("GET /users/:id", BucketAnswer("users", "0", "0.250"), t0);
    EXPECT_TRUE(learned.toldWait);
    EXPECT_EQ(limits.ReadyAt("GET /users/:id"), t0 + 250ms);
    EXPECT_FALSE(limits.ClearToWrite("GET /users/:id", t0 + 249ms));
    EXPECT_TRUE(limits.ClearToWrite("GET /users/:id", t0 + 250ms));
}

// An answer to an earlier request, arriving after the one that said "exhausted", does not reopen the bucket.
TEST(RateLimiterTest, ExhaustionIsNotUndoneByAnOlderAnswerArrivingLater) {
    RateLimiter limits;
    limits.Learn("PUT /lobbies", BucketAnswer("write", "0", "0.400"), t0);
    limits.Learn("POST /lobbies/:id/members", BucketAnswer("write", "2", "0.410"), t0 + 1ms);
    EXPECT_EQ(limits.ReadyAt("PUT /lobbies"), t0 + 400ms);
    EXPECT_FALSE(limits.ClearToWrite("POST /lobbies/:id/members", t0 + 399ms));
    EXPECT_TRUE(limits.ClearToWrite("POST /lobbies/:id/members", t0 + 400ms));
}

// The client's own count holds the next request back, but not the one it was counted for.
TEST(RateLimiterTest, OwnCountHoldsTheNextRequestButNotTheDispatchedOne) {
    RateLimiter limits;
    limits.Learn("GET /a", BucketAnswer("a", "1", "0.500"), t0);
    EXPECT_LE(limits.ReadyAt("GET /a"), t0);
    limits.CountDispatched("GET /a");
    EXPECT_EQ(limits.ReadyAt("GET /a"), t0 + 500ms);       // the next one waits for the reset
    EXPECT_TRUE(limits.ClearToWrite("GET /a", t0 + 1ms));  // the dispatched one goes out
}

// A route whose bucket another route's answer named: a wait told for the bucket is the route's as soon as the
// route's own answer names the bucket.
TEST(RateLimiterTest, BucketLearntFromAnotherRouteCarriesItsWait) {
    RateLimiter limits;
    limits.Learn("PUT /lobbies", Limited("0.6", false, "write"), t0);
    EXPECT_TRUE(limits.ClearToWrite("POST /lobbies/:id/members", t0));  // not known to share it yet
    limits.Learn("POST /lobbies/:id/members", BucketAnswer("write", "3", "0.600"), t0 + 10ms);
    EXPECT_EQ(limits.QueueKeyOf("POST /lobbies/:id/members"), "bucket write");
    EXPECT_FALSE(limits.ClearToWrite("POST /lobbies/:id/members", t0 + 599ms));
    EXPECT_EQ(limits.ReadyAt("POST /lobbies/:id/members"), t0 + 600ms);
}

// A wait told to a route before its bucket was known moves to the bucket when the bucket is learnt.
TEST(RateLimiterTest, RouteWaitMovesToItsBucketWhenTheBucketIsLearnt) {
    RateLimiter limits;
    limits.Learn("GET /a", Limited("0.8", false), t0);  // a 429 that named no bucket
    EXPECT_EQ(limits.QueueKeyOf("GET /a"), "route GET /a");
    limits.Learn("GET /a", BucketAnswer("a", "5", "1.000"), t0 + 1ms);
    EXPECT_EQ(limits.QueueKeyOf("GET /a"), "bucket a");
    EXPECT_FALSE(limits.ClearToWrite("GET /a", t0 + 799ms));
    EXPECT_TRUE(limits.ClearToWrite("GET /a", t0 + 800ms));
}

// A later, shorter 429 does not shorten a running wait.
TEST(RateLimiterTest, ShorterWaitToldLaterDoesNotShortenARunningOne) {
    RateLimiter limits;
    limits.Learn("GET /a", Limited("1.0", true), t0);
    limits.Learn("GET /b", Limited("0.1", true), t0 + 10ms);
    EXPECT_EQ(limits.ReadyAt("GET /c"), t0 + 1s);
}
