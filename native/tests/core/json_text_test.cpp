// Network JSON with lone surrogate escapes: valid JSON text (RFC 8259 §8.2) that nlohmann refuses whole.
#include <gtest/gtest.h>

#include "net/json_text.hpp"

using svcpp::core::net::ParseJson;
using svcpp::core::net::ReplaceLoneSurrogateEscapes;

namespace {

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

}  // namespace

TEST(JsonText, TextWithoutSurrogatesIsUnchanged) {
    const std::string text = R"({"a":"x\u00e9\n\\u","b":[1,2]})";
    EXPECT_EQ(ReplaceLoneSurrogateEscapes(text), text);
    EXPECT_EQ(ParseJson(text)["a"], "x\xC3\xA9\n\\u");
}

TEST(JsonText, AProperPairIsKept) {
    const std::string text = R"(["\ud83d\ude00"])";
    EXPECT_EQ(ReplaceLoneSurrogateEscapes(text), text);
    EXPECT_EQ(ParseJson(text)[0], "\xF0\x9F\x98\x80");
}

TEST(JsonText, LoneHighAndLowSurrogatesBecomeTheReplacementCharacter) {
    EXPECT_EQ(ParseJson(R"(["\ud800"])")[0], kReplacement);
    EXPECT_EQ(ParseJson(R"(["\uDBFFx"])")[0], kReplacement + "x");
    EXPECT_EQ(ParseJson(R"(["\udc00"])")[0], kReplacement);
    EXPECT_EQ(ParseJson(R"(["a\ud800\ud800\ude00b"])")[0], "a" + kReplacement +
                                                               "\xF0\x90\x88\x80"
                                                               "b");  // lone, then the pair U+10200
    EXPECT_EQ(ParseJson(R"(["\ude00\ud800"])")[0], kReplacement + kReplacement);
    EXPECT_EQ(ParseJson(R"({"\ud800":1})").begin().key(), kReplacement);  // keys too
}

TEST(JsonText, AnEscapedBackslashBeforeUIsNotAnEscape) {
    const std::string text = R"(["\\ud800"])";  // a backslash, then the six characters "ud800"
    EXPECT_EQ(ReplaceLoneSurrogateEscapes(text), text);
    EXPECT_EQ(ParseJson(text)[0], "\\ud800");
}

TEST(JsonText, TextThatIsNotJsonStaysDiscarded) {
    EXPECT_TRUE(ParseJson("not json").is_discarded());
    EXPECT_TRUE(ParseJson(R"(["\ud8)").is_discarded());  // truncated escape
    EXPECT_TRUE(ParseJson(R"(["\u12"])").is_discarded());
}
