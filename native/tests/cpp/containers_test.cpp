// C++ wrapper: the std containers <-> C container conversions (detail::) every generated member with a map or an
// id list uses — views of inputs, copies of borrowed callback arguments, taking (and freeing) library outputs — and
// ActivityButton as an ordinary value class.
#include <gtest/gtest.h>

#include <cstring>

#include "svcpp.hpp"

using namespace svcpp;

namespace {

Svcpp_String LibraryString(char const *text) {
    size_t n = std::strlen(text);
    Svcpp_String s{static_cast<uint8_t *>(Svcpp_Alloc(n + 1)), n};
    std::memcpy(s.ptr, text, n + 1);
    return s;
}

std::string Str(Svcpp_String s) { return detail::ToStdString(s); }

}  // namespace

TEST(Containers, PropertiesViewBorrowsTheMapsStrings) {
    std::unordered_map<std::string, std::string> const map{{"a", "1"}, {"b", ""}};
    detail::PropertiesView view(map);
    Svcpp_Properties props = view.View();
    ASSERT_EQ(props.size, 2u);
    std::unordered_map<std::string, std::string> seen;
    for (size_t i = 0; i < props.size; ++i) {
        EXPECT_EQ(reinterpret_cast<char const *>(props.keys[i].ptr), map.find(Str(props.keys[i]))->first.data());
        seen.emplace(Str(props.keys[i]), Str(props.values[i]));
    }
    EXPECT_EQ(seen, map);

    detail::PropertiesView none({});
    Svcpp_Properties empty = none.View();
    EXPECT_EQ(empty.size, 0u);
    EXPECT_EQ(empty.keys, nullptr);
    EXPECT_EQ(empty.values, nullptr);
}

TEST(Containers, TakePropertiesCopiesAndZeroes) {
    Svcpp_Properties props{2, static_cast<Svcpp_String *>(Svcpp_Alloc(2 * sizeof(Svcpp_String))),
                           static_cast<Svcpp_String *>(Svcpp_Alloc(2 * sizeof(Svcpp_String)))};
    props.keys[0] = LibraryString("k1");
    props.values[0] = LibraryString("v1");
    props.keys[1] = LibraryString("k2");
    props.values[1] = LibraryString("v2");
    EXPECT_EQ(detail::TakeProperties(props),
              (std::unordered_map<std::string, std::string>{{"k1", "v1"}, {"k2", "v2"}}));
    EXPECT_EQ(props.size, 0u);
    EXPECT_EQ(props.keys, nullptr);

    Svcpp_Properties rejected{0, nullptr, nullptr};  // what a rejected call leaves behind
    EXPECT_TRUE(detail::TakeProperties(rejected).empty());
}

TEST(Containers, U64SpansViewCopyAndTake) {
    std::vector<uint64_t> const ids{1, UINT64_MAX};
    Svcpp_UInt64Span view = detail::U64SpanView(ids);
    EXPECT_EQ(view.ptr, ids.data());
    EXPECT_EQ(view.size, 2u);
    EXPECT_EQ(detail::U64SpanView({}).ptr, nullptr);
    EXPECT_EQ(detail::ToU64Vector(view), ids);

    Svcpp_UInt64Span owned{static_cast<uint64_t *>(Svcpp_Alloc(2 * sizeof(uint64_t))), 2};
    owned.ptr[0] = 7;
    owned.ptr[1] = 8;
    EXPECT_EQ(detail::TakeU64Span(owned), (std::vector<uint64_t>{7, 8}));
    EXPECT_EQ(owned.ptr, nullptr);
    EXPECT_EQ(owned.size, 0u);
}

TEST(Containers, ElementHandlesAreTheWrappersHandles) {
    std::vector<ActivityButton> buttons(2);
    buttons[0].SetLabel("Join");
    std::vector<Svcpp_ActivityButton> handles = detail::ElementHandles<Svcpp_ActivityButton>(buttons);
    ASSERT_EQ(handles.size(), 2u);
    EXPECT_EQ(handles[0].opaque, buttons[0].instance()->opaque);
    EXPECT_EQ(handles[1].opaque, buttons[1].instance()->opaque);
}

TEST(Containers, ActivityButtonIsAValue) {
    ActivityButton button;
    button.SetLabel("Watch");
    button.SetUrl("https://example.com/watch");
    ActivityButton copy = button;
    button.SetLabel("Changed");
    EXPECT_EQ(copy.Label(), "Watch");
    EXPECT_EQ(copy.Url(), "https://example.com/watch");
}
