// Svcpp_Properties marshalling (native/SEMANTICS.md "Maps"): the rules every generated map input, output and callback
// argument follows, tested once here on the helpers the generated code calls.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "marshal_test_support.hpp"
#include "support/properties.hpp"

namespace svcpp::capi {
namespace {

using core::Errc;
using test::ErrcOf;
using test::S;

std::string Str(const Svcpp_String &s) { return std::string(reinterpret_cast<const char *>(s.ptr), s.size); }

TEST(InProperties, CopiesEveryEntry) {
    Svcpp_String keys[] = {S("b"), S("a"), S("")};
    Svcpp_String values[] = {S("2"), S("1\0x", 3), S("empty key")};
    core::Properties copy = InProperties(Svcpp_Properties{3, keys, values}, "metadata", {});
    EXPECT_EQ(copy, (core::Properties{{"a", std::string("1\0x", 3)}, {"b", "2"}, {"", "empty key"}}));
}

TEST(InProperties, EmptyMayHaveNullArrays) {
    EXPECT_TRUE(InProperties(Svcpp_Properties{0, nullptr, nullptr}, "metadata", {}).empty());
}

TEST(InProperties, NullArraysWithEntriesAreNullArgument) {
    Svcpp_String one[] = {S("k")};
    EXPECT_EQ(ErrcOf([&] { InProperties(Svcpp_Properties{1, nullptr, one}, "m", {}); }), Errc::NullArgument);
    EXPECT_EQ(ErrcOf([&] { InProperties(Svcpp_Properties{1, one, nullptr}, "m", {}); }), Errc::NullArgument);
    Svcpp_String nullString[] = {Svcpp_String{nullptr, 3}};
    EXPECT_EQ(ErrcOf([&] { InProperties(Svcpp_Properties{1, one, nullString}, "m", {}); }), Errc::NullArgument);
}

TEST(InProperties, DuplicateKeyIsInvalidArgument) {
    Svcpp_String keys[] = {S("a"), S("b"), S("a")};
    Svcpp_String values[] = {S("1"), S("2"), S("3")};
    EXPECT_EQ(ErrcOf([&] { InProperties(Svcpp_Properties{3, keys, values}, "m", {}); }), Errc::InvalidArgument);
}

TEST(InProperties, MalformedUtf8InKeyOrValueIsInvalidUtf8) {
    Svcpp_String good[] = {S("k")};
    Svcpp_String bad[] = {S("\xC3\x28")};  // a lead byte followed by a non-continuation byte
    EXPECT_EQ(ErrcOf([&] { InProperties(Svcpp_Properties{1, bad, good}, "m", {}); }), Errc::InvalidUtf8);
    EXPECT_EQ(ErrcOf([&] { InProperties(Svcpp_Properties{1, good, bad}, "m", {}); }), Errc::InvalidUtf8);
}

TEST(InProperties, LimitsCountKeysAndCodePoints) {
    Svcpp_String keys[] = {S("\xC3\xA9t\xC3\xA9"), S("b")};  // "été": 3 code points, 5 bytes
    Svcpp_String values[] = {S("12345"), S("x")};
    const Svcpp_Properties props{2, keys, values};
    EXPECT_EQ(ErrcOf([&] { InProperties(props, "m", MapLimits{2, 3, 5}); }), Errc::Ok);
    EXPECT_EQ(ErrcOf([&] { InProperties(props, "m", MapLimits{1, 0, 0}); }), Errc::InvalidArgument);
    EXPECT_EQ(ErrcOf([&] { InProperties(props, "m", MapLimits{0, 2, 0}); }), Errc::InvalidArgument);
    EXPECT_EQ(ErrcOf([&] { InProperties(props, "m", MapLimits{0, 0, 4}); }), Errc::InvalidArgument);
}

TEST(OutProperties, SortedByKeyBytesAndNulTerminated) {
    // "Z" (0x5A) < "a" (0x61) < "é" (0xC3 0xA9): byte order, not locale order.
    const core::Properties value{{"\xC3\xA9", "3"}, {"a", "2"}, {"Z", "1"}};
    Svcpp_Properties out{};
    OutProperties(value, &out, "out");
    ASSERT_EQ(out.size, 3u);
    EXPECT_EQ(Str(out.keys[0]), "Z");
    EXPECT_EQ(Str(out.keys[1]), "a");
    EXPECT_EQ(Str(out.keys[2]), "\xC3\xA9");
    EXPECT_EQ(Str(out.values[0]), "1");
    EXPECT_EQ(Str(out.values[2]), "3");
    for (size_t i = 0; i < out.size; ++i) {
        EXPECT_EQ(out.keys[i].ptr[out.keys[i].size], 0);
        EXPECT_EQ(out.values[i].ptr[out.values[i].size], 0);
    }
    Svcpp_FreeProperties(out);  // the public release (what a leak checker watches)
}

TEST(OutProperties, EmptyIsAllZero) {
    Svcpp_Properties out{7, reinterpret_cast<Svcpp_String *>(&out), nullptr};
    OutProperties({}, &out, "out");
    EXPECT_EQ(out.size, 0u);
    EXPECT_EQ(out.keys, nullptr);
    EXPECT_EQ(out.values, nullptr);
    Svcpp_FreeProperties(out);
}

TEST(OutProperties, NullOutIsNullArgument) {
    EXPECT_EQ(ErrcOf([] { OutProperties({{"a", "b"}}, nullptr, "out"); }), Errc::NullArgument);
}

TEST(OutProperties, RoundTripsThroughInProperties) {
    const core::Properties value{{"k1", "v1"}, {"k2", ""}};
    Svcpp_Properties out{};
    OutProperties(value, &out, "out");
    EXPECT_EQ(InProperties(out, "again", {}), value);
    ReleaseProperties(out);
}

TEST(BorrowedProperties, ViewsTheMapSorted) {
    const core::Properties value{{"b", "2"}, {"a", "1"}};
    BorrowedProperties borrowed(value);
    Svcpp_Properties view = borrowed.View();
    ASSERT_EQ(view.size, 2u);
    EXPECT_EQ(Str(view.keys[0]), "a");
    EXPECT_EQ(Str(view.values[1]), "2");
    // A view, not a copy: the strings are the map's own.
    EXPECT_EQ(reinterpret_cast<const char *>(view.keys[0].ptr), value.begin()->first.data());
}

TEST(BorrowedProperties, EmptyIsAllZero) {
    BorrowedProperties borrowed({});
    Svcpp_Properties view = borrowed.View();
    EXPECT_EQ(view.size, 0u);
    EXPECT_EQ(view.keys, nullptr);
    EXPECT_EQ(view.values, nullptr);
}

}  // namespace
}  // namespace svcpp::capi
