// JsonReader: Boost.JSON's lexer building nlohmann DOM values. Every document reads as nlohmann's own parser reads it —
// the same values of the same types, the same refusals — except past the two limits net/json_reader.hpp names.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "net/json_reader.hpp"

using namespace svcpp::core;
using nlohmann::json;

namespace {

// Equal values of the same nlohmann types (its operator== calls 5 and 5u equal, and 0.0 and -0.0): a reader that
// asks is_number_unsigned() or reads a double's bits must see what nlohmann's parser gives.
bool StrictlyEqual(const json &a, const json &b) {
    if (a.type() != b.type()) return false;
    switch (a.type()) {
        case json::value_t::object: {
            if (a.size() != b.size()) return false;
            for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
                if (ia.key() != ib.key() || !StrictlyEqual(*ia, *ib)) return false;
            }
            return true;
        }
        case json::value_t::array: {
            if (a.size() != b.size()) return false;
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (!StrictlyEqual(a[i], b[i])) return false;
            }
            return true;
        }
        case json::value_t::number_float: {
            const double x = a.get<double>(), y = b.get<double>();
            return std::memcmp(&x, &y, sizeof x) == 0;
        }
        default: return a == b;
    }
}

// Accepted by both or by neither, and the same value.
void ExpectReadAsNlohmannReadsIt(const std::string &text) {
    SCOPED_TRACE(text.size() > 200 ? text.substr(0, 200) + "…" : text);
    const json theirs = json::parse(text, nullptr, /*allow_exceptions=*/false);
    net::JsonReader reader;
    json ours;
    const bool read = reader.Read(text, ours);
    ASSERT_EQ(read, !theirs.is_discarded());
    if (read) EXPECT_TRUE(StrictlyEqual(ours, theirs));
}

std::string Nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

/** Records the keys it is asked about and builds the ones it was told to keep. */
class RecordingRouter : public net::MemberRouter {
  public:
    explicit RecordingRouter(std::vector<std::string> keep) : keep_(std::move(keep)) {}
    json *Route(std::string_view key) override {
        asked.emplace_back(key);
        for (const auto &k : keep_) {
            if (k == key) return &kept[k];
        }
        return nullptr;
    }
    std::vector<std::string> asked;
    json kept = json::object();

  private:
    std::vector<std::string> keep_;
};

}  // namespace

TEST(JsonReader, NumbersGetNlohmannsTypesAndValues) {
    ExpectReadAsNlohmannReadsIt(
        R"({"zero":0,"minusZero":-0,"five":5,"minusFive":-5,"int64Max":9223372036854775807,)"
        R"("int64Min":-9223372036854775808,"uint64Max":18446744073709551615,)"
        R"("pastUint64":18446744073709551616,"pastInt64Min":-9223372036854775809,)"
        R"("tenth":0.1,"minusZeroPointZero":-0.0,"subnormal":4.9406564584124654e-324,)"
        R"("underflow":1e-400,"halfway":9007199254740993.0,"longMantissa":123456789012345678901234567890e-10,)"
        R"("hardRounding":2.2250738585072011e-308,"max":1.7976931348623157e308,"exp":1E+2,"negExp":-5e-3})");
    for (const char *top : {"0", "-0", "7", "-7", "1.5", "1e2", "18446744073709551616"})
        ExpectReadAsNlohmannReadsIt(top);
    net::JsonReader reader;
    json value;
    ASSERT_TRUE(reader.Read(R"({"u":5,"i":-5,"z":-0,"f":0.1,"big":18446744073709551616})", value));
    EXPECT_TRUE(value["u"].is_number_unsigned());
    EXPECT_TRUE(value["i"].is_number_integer() && !value["i"].is_number_unsigned());
    EXPECT_TRUE(value["z"].is_number_integer() && !value["z"].is_number_unsigned());
    EXPECT_TRUE(value["f"].is_number_float());
    EXPECT_TRUE(value["big"].is_number_float());
}

TEST(JsonReader, StringsAndKeysAreReadAsNlohmannReadsThem) {
    ExpectReadAsNlohmannReadsIt(R"({"k\u00e9y\n":"v\"al\\ue\/\b\f\n\r\t\u0000\u001f\u20ac\ud83d\ude00"})");
    ExpectReadAsNlohmannReadsIt(R"(["", "plain", "é€😀 raw UTF-8"])");
    // Long strings and keys full of escapes: the parser hands them over in parts.
    std::string escaped;
    for (int i = 0; i < 5000; ++i) escaped += "ab\\n\\u00e9\\\"";
    ExpectReadAsNlohmannReadsIt("{\"" + escaped + "\":\"" + escaped + "\",\"x\":[\"" + escaped + "\"]}");
    // Invalid UTF-8 is refused by both: an overlong form, an encoded surrogate, past U+10FFFF, a cut sequence.
    for (const char *bad : {"\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\xFF", "\x80"}) {
        ExpectReadAsNlohmannReadsIt(std::string("\"") + bad + "\"");
        ExpectReadAsNlohmannReadsIt(std::string("{\"") + bad + "\":1}");
    }
    ExpectReadAsNlohmannReadsIt("\"a\tb\"");     // a raw control character
    ExpectReadAsNlohmannReadsIt(R"("\ud800")");  // a lone surrogate escape: refused (json_text.hpp replaces them first)
}

TEST(JsonReader, OfAKeyGivenTwiceTheLastCounts) {
    ExpectReadAsNlohmannReadsIt(R"({"a":1,"b":2,"a":{"c":3},"a":[4]})");
    net::JsonReader reader;
    json value;
    ASSERT_TRUE(reader.Read(R"({"a":1,"a":"two"})", value));
    EXPECT_EQ(value, json({{"a", "two"}}));
}

TEST(JsonReader, StrictJsonOnly) {
    for (const char *text : {"",    " ",   "{",       "}",    "[1,]", "{\"a\":1,}", "/* c */ 1", "1 // c",
                             "01",  "1.",  ".5",      "+1",   "-",    "\"\\x\"",    "NaN",       "Infinity",
                             "tru", "nul", "[1] [2]", "{} x", "'a'",  "{a:1}",      "1e",        "\"open"}) {
        ExpectReadAsNlohmannReadsIt(text);
    }
    for (const char *text : {" {} ", "\t[\n1\r]\n", "null", "true", "false", "\"s\"", "[]", "{}"})
        ExpectReadAsNlohmannReadsIt(text);
    ExpectReadAsNlohmannReadsIt("\xEF\xBB\xBF{\"bom\":1}");  // a leading byte-order mark: skipped, as nlohmann does
    ExpectReadAsNlohmannReadsIt("\xEF\xBB{}");
    ExpectReadAsNlohmannReadsIt(R"({"x":1e400})");  // a double's overflow: refused by both
    ExpectReadAsNlohmannReadsIt(R"({"x":-1e400})");
}

TEST(JsonReader, RefusesWhatPassesItsTwoLimits) {
    net::JsonReader reader;
    json value;
    // Nesting: kMaxDepth levels are read, one more is refused (nlohmann has no limit).
    EXPECT_TRUE(reader.Read(Nested(net::JsonReader::kMaxDepth), value));
    ExpectReadAsNlohmannReadsIt(Nested(net::JsonReader::kMaxDepth));
    EXPECT_FALSE(reader.Read(Nested(net::JsonReader::kMaxDepth + 1), value));
    EXPECT_FALSE(reader.Read(Nested(100000), value));
    // An exponent past a 32-bit integer (nlohmann reads this one as 0).
    EXPECT_FALSE(reader.Read(R"({"x":0e99999999999})", value));
    EXPECT_FALSE(reader.Read(R"({"x":1e-99999999999})", value));
    // The reader is still good after a refusal.
    ASSERT_TRUE(reader.Read(R"({"after":[1]})", value));
    EXPECT_EQ(value, json::parse(R"({"after":[1]})"));
}

TEST(JsonReader, AReaderReusedForManyDocumentsForgetsEachOne) {
    net::JsonReader reader;
    const std::vector<std::string> texts = {
        R"({"a":{"b":[1,2,{"c":"d"}]}})", "[1,", R"("just a string")", "{\"e\":", R"([{"f":null}])", "42"};
    for (const auto &text : texts) {
        SCOPED_TRACE(text);
        json value = json::array({"leftover"});
        const json theirs = json::parse(text, nullptr, false);
        ASSERT_EQ(reader.Read(text, value), !theirs.is_discarded());
        if (!theirs.is_discarded()) EXPECT_TRUE(StrictlyEqual(value, theirs));
    }
}

TEST(JsonReader, ReadMembersRoutesEachMemberOfTheTopLevelObject) {
    net::JsonReader reader;
    RecordingRouter router({"keep", "also"});
    ASSERT_TRUE(reader.ReadMembers(R"({"keep":{"x":[1]},"skip":{"deep":[[{"y":2}]]},"also":"s","keep":[3]})", router));
    EXPECT_EQ(router.asked, (std::vector<std::string>{"keep", "skip", "also", "keep"}));
    EXPECT_EQ(router.kept, json::parse(R"({"keep":[3],"also":"s"})"));  // of a key given twice, the last
}

TEST(JsonReader, ReadMembersChecksWhatItSkips) {
    net::JsonReader reader;
    RecordingRouter router({});
    EXPECT_TRUE(reader.ReadMembers(R"({"skip":{"a":[1,2,{"b":null}]}})", router));
    EXPECT_FALSE(reader.ReadMembers(R"({"skip":{"a":[1,2,}})", router));
    EXPECT_FALSE(reader.ReadMembers("{\"skip\":\"\xC0\x80\"}", router));
}

TEST(JsonReader, ReadMembersWantsOneObject) {
    net::JsonReader reader;
    RecordingRouter router({"a"});
    for (const char *text : {"[1]", "1", "\"a\"", "null", "{\"a\":1} {}", "{\"a\":1", ""}) {
        SCOPED_TRACE(text);
        EXPECT_FALSE(reader.ReadMembers(text, router));
    }
    EXPECT_TRUE(reader.ReadMembers("{}", router));
}

// A value read where one of the same type already is gets built over it (its nodes kept): whatever it was, the result
// is the fresh reading of the new text.
TEST(JsonReader, AValueBuiltOverAnotherIsTheFreshValue) {
    std::string wide = "{";
    for (int i = 0; i < 40; ++i) wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    wide += "}";
    const std::vector<std::string> texts = {
        R"({"id":"1","content":"hello","author":{"id":"2","username":"a"},"metadata":{"x":"1"},"n":[1,2,3]})",
        R"({"id":"3","content":"a longer content than the small-string buffer holds","author":{"id":"4"},"n":[4]})",
        R"({"author":{"id":"2","username":"a","extra":[{"deep":true}]},"id":"1","n":[],"z":null})",
        R"({"id":5,"content":["not","a","string"],"author":"flat","metadata":{}})",
        R"({"a":1,"a":{"b":2},"a":[3],"b":{"c":{"d":[{"e":1},{"e":2,"f":3}]}}})",
        R"({"b":{"c":{"d":[{"e":1,"f":2,"g":3}]}},"a":"last"})",
        R"([1,"two",{"three":3},[4],null,true,2.5])",
        R"([{"three":3,"four":4},"two",1])",
        R"("a string")",
        R"(42)",
        R"({})",
        R"([])",
        wide,
        R"({"k0":"replaced","k39":[1]})",
    };
    for (const auto &first : texts) {
        for (const auto &second : texts) {
            SCOPED_TRACE(first + "  then  " + second);
            net::JsonReader reader;
            json target;
            ASSERT_TRUE(reader.Read(first, target));
            ASSERT_TRUE(reader.Read(second, target));
            EXPECT_TRUE(StrictlyEqual(target, json::parse(second)));
            ASSERT_TRUE(reader.Read(second, target));  // the same shape again: every node kept
            EXPECT_TRUE(StrictlyEqual(target, json::parse(second)));
        }
    }
}

// A member routed to a place that keeps its value from document to document (the frame reader's `d`) is built over it.
TEST(JsonReader, AMemberRoutedOverItsPreviousValueIsTheFreshValue) {
    net::JsonReader reader;
    RecordingRouter router({"d"});
    const std::vector<std::string> frames = {
        R"({"op":0,"d":{"id":"1","list":[1,2,3],"user":{"name":"a"}}})",
        R"({"op":0,"d":{"id":"2","list":[4],"user":{"name":"b","bot":true}}})",
        R"({"op":0,"d":{"id":"3"},"d":{"list":[]}})",
        R"({"op":0,"d":[{"id":"4"}]})",
        R"({"op":0,"d":{"id":"1","list":[1,2,3],"user":{"name":"a"}}})",
    };
    for (const auto &text : frames) {
        SCOPED_TRACE(text);
        ASSERT_TRUE(reader.ReadMembers(text, router));
        EXPECT_TRUE(StrictlyEqual(router.kept["d"], json::parse(text, nullptr, false)["d"]));
    }
}
