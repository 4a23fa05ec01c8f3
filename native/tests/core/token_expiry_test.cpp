// SecondsUntilExpiry (auth/requests.cpp): the seconds left until the `expires` timestamp of /oauth2/@me, for any year
// a platform may answer — a token that "expires" in the year 3000 overflowed a nanosecond clock (undefined behaviour
// that UBSan caught in the client lifetime test).
#include <gtest/gtest.h>

#include <chrono>

#include "auth/requests.hpp"

namespace svcpp::core::auth {
namespace {

net::HttpResponse Expires(const std::string &timestamp) {
    net::HttpResponse response;
    response.status = 200;
    response.body = R"({"expires":")" + timestamp + R"("})";
    return response;
}

int64_t NowSeconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

TEST(TokenExpiry, SecondsUntilAnExpiryFarPastTheNanosecondClocksRange) {
    // 3000-01-01T00:00:00Z is 32,503,680,000 s after the epoch.
    const auto seconds = SecondsUntilExpiry(Expires("3000-01-01T00:00:00+00:00"));
    ASSERT_TRUE(seconds.has_value());
    EXPECT_NEAR(static_cast<double>(*seconds), static_cast<double>(int64_t{32503680000} - NowSeconds()), 5.0);
}

TEST(TokenExpiry, SecondsUntilAnExpiryLaterThisCenturyAndOneInThePast) {
    const auto later = SecondsUntilExpiry(Expires("2100-01-01T00:00:00+00:00"));
    ASSERT_TRUE(later.has_value());
    EXPECT_NEAR(static_cast<double>(*later), static_cast<double>(int64_t{4102444800} - NowSeconds()), 5.0);
    const auto past = SecondsUntilExpiry(Expires("2001-09-09T01:46:40+00:00"));  // 1,000,000,000 s
    ASSERT_TRUE(past.has_value());
    EXPECT_NEAR(static_cast<double>(*past), static_cast<double>(int64_t{1000000000} - NowSeconds()), 5.0);
}

TEST(TokenExpiry, AnAbsentOrMalformedExpiryIsNone) {
    EXPECT_FALSE(SecondsUntilExpiry(Expires("not a date")).has_value());
    net::HttpResponse none;
    none.status = 200;
    none.body = R"({"user":{}})";
    EXPECT_FALSE(SecondsUntilExpiry(none).has_value());
}

}  // namespace
}  // namespace svcpp::core::auth
