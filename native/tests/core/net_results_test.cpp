// HTTP responses -> ClientResult (native/SEMANTICS.md "Operations") and the form/query helpers.
#include <gtest/gtest.h>

#include "net/form.hpp"
#include "net/results.hpp"

using namespace svcpp::core;

namespace {
net::HttpResponse Response(int status, std::string body, std::map<std::string, std::string> headers = {}) {
    net::HttpResponse r;
    r.status = status;
    r.body = std::move(body);
    r.headers = std::move(headers);
    return r;
}
}  // namespace

TEST(NetResults, SuccessAndNetworkErrors) {
    EXPECT_EQ(net::ResultFromHttp(Response(204, "")).type, ErrorType::None);
    net::HttpResponse down;
    down.networkError = "timed out";
    auto r = net::ResultFromHttp(down);
    EXPECT_EQ(r.type, ErrorType::NetworkError);
    EXPECT_EQ(r.error, "timed out");
    EXPECT_TRUE(r.retryable);
}

TEST(NetResults, HttpErrorsCarryStatusCodeMessageAndBody) {
    auto r = net::ResultFromHttp(Response(401, R"({"code":50025,"message":"Invalid OAuth2 access token"})"));
    EXPECT_EQ(r.type, ErrorType::HTTPError);
    EXPECT_EQ(r.status, HttpStatusCode::Unauthorized);
    EXPECT_EQ(r.errorCode, 50025);
    EXPECT_EQ(r.error, "Invalid OAuth2 access token");
    EXPECT_FALSE(r.retryable);
    EXPECT_EQ(r.responseBody, R"({"code":50025,"message":"Invalid OAuth2 access token"})");
}

TEST(NetResults, RateLimitsAndGatewayErrorsAreRetryable) {
    auto limited = net::ResultFromHttp(
        Response(429, R"({"message":"You are being rate limited.","retry_after":1.5,"global":false})"));
    EXPECT_TRUE(limited.retryable);
    EXPECT_FLOAT_EQ(limited.retryAfter, 1.5f);
    auto header = net::ResultFromHttp(Response(429, "", {{"retry-after", "3"}}));
    EXPECT_FLOAT_EQ(header.retryAfter, 3.0f);
    EXPECT_TRUE(net::ResultFromHttp(Response(503, "")).retryable);
    EXPECT_FALSE(net::ResultFromHttp(Response(500, "")).retryable);
}

TEST(NetResults, OAuthCredentialErrorsAreAuthorizationFailures) {
    auto grant = net::ResultFromOAuthHttp(
        Response(400, R"({"error":"invalid_grant","error_description":"Invalid \"refresh_token\" in request."})"));
    EXPECT_EQ(grant.type, ErrorType::AuthorizationFailed);
    EXPECT_EQ(grant.status, HttpStatusCode::BadRequest);
    EXPECT_NE(grant.error.find("invalid_grant"), std::string::npos);
    EXPECT_EQ(net::ResultFromOAuthHttp(Response(400, R"({"error":"invalid_scope"})")).type, ErrorType::HTTPError);
}

TEST(NetForm, EncodesAndParses) {
    EXPECT_EQ(net::EncodeForm({{"a b", "x&y=z"}, {"scope", "openid sdk.social_layer"}}),
              "a%20b=x%26y%3Dz&scope=openid%20sdk.social_layer");
    auto q = net::ParseQuery("/callback?code=abc%2F1&state=s+t&empty=&flag#frag");
    EXPECT_EQ(q["code"], "abc/1");
    EXPECT_EQ(q["state"], "s t");
    EXPECT_EQ(q["empty"], "");
    EXPECT_TRUE(q.count("flag"));
    EXPECT_TRUE(net::ParseQuery("/no-query").empty());
}
