// Local limits of the social calls (messages/validation): each rule fails with a message, the edges pass.
#include <gtest/gtest.h>

#include "messages/validation.hpp"

using namespace svcpp::core;
using namespace svcpp::core::validation;

TEST(SocialValidation, ContentIsOneTo2000CodePoints) {
    EXPECT_TRUE(CheckContent(""));
    EXPECT_FALSE(CheckContent("x"));
    EXPECT_FALSE(CheckContent(std::string(2000, 'x')));
    EXPECT_TRUE(CheckContent(std::string(2001, 'x')));
    std::string emoji;
    for (int i = 0; i < 2000; ++i) emoji += "\xF0\x9F\x98\x80";  // 4 bytes, one code point each
    EXPECT_FALSE(CheckContent(emoji));
    EXPECT_TRUE(CheckContent(emoji + "x"));
}

TEST(SocialValidation, MetadataHasAtMost25KeysAndShortValues) {
    Properties map;
    for (int i = 0; i < 25; ++i) map["k" + std::to_string(i)] = std::string(1024, 'v');
    EXPECT_FALSE(CheckMetadata(map, "metadata"));
    map["k25"] = "v";
    EXPECT_TRUE(CheckMetadata(map, "metadata"));
    EXPECT_TRUE(CheckMetadata({{"k", std::string(1025, 'v')}}, "metadata"));
    EXPECT_TRUE(CheckMetadata({{"", "v"}}, "metadata"));
    EXPECT_FALSE(CheckMetadata({}, "metadata"));
}

TEST(SocialValidation, SecretIsOneTo250CodePoints) {
    EXPECT_TRUE(CheckSecret(""));
    EXPECT_FALSE(CheckSecret(std::string(250, 's')));
    EXPECT_TRUE(CheckSecret(std::string(251, 's')));
}

TEST(SocialValidation, HistoryLimitDefaultsTo200AndCapsThere) {
    int32_t limit = 0;
    EXPECT_FALSE(CheckHistoryLimit(limit));
    EXPECT_EQ(limit, 200);
    limit = -5;
    EXPECT_FALSE(CheckHistoryLimit(limit));
    EXPECT_EQ(limit, 200);
    limit = 200;
    EXPECT_FALSE(CheckHistoryLimit(limit));
    limit = 201;
    EXPECT_TRUE(CheckHistoryLimit(limit));
}

TEST(SocialValidation, CodePointsCountsUtf8Characters) {
    EXPECT_EQ(CodePoints(""), 0u);
    EXPECT_EQ(CodePoints("h\xC3\xA9llo"), 5u);
}
