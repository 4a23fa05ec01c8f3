// Span inputs and u64 spans (native/SEMANTICS.md "Spans"): the helpers behind list:u64 results and callback arguments
// and behind list field setters (InSpan), tested once here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "marshal_test_support.hpp"
#include "support/spans.hpp"

namespace svcpp::capi {
namespace {

using core::Errc;
using test::ErrcOf;

TEST(U64Span, InCopiesAndAcceptsEmpty) {
    uint64_t ids[] = {1, 0xFFFFFFFFFFFFFFFFull, 42};
    EXPECT_EQ(InU64Span(Svcpp_UInt64Span{ids, 3}, "ids"), (std::vector<uint64_t>{1, 0xFFFFFFFFFFFFFFFFull, 42}));
    EXPECT_TRUE(InU64Span(Svcpp_UInt64Span{nullptr, 0}, "ids").empty());
    EXPECT_EQ(ErrcOf([] { InU64Span(Svcpp_UInt64Span{nullptr, 2}, "ids"); }), Errc::NullArgument);
}

TEST(U64Span, OutIsACallerOwnedCopy) {
    const std::vector<uint64_t> ids{7, 8, 9};
    Svcpp_UInt64Span out{};
    OutU64Span(ids, &out, "out");
    ASSERT_EQ(out.size, 3u);
    EXPECT_NE(out.ptr, ids.data());
    EXPECT_EQ(std::vector<uint64_t>(out.ptr, out.ptr + out.size), ids);
    Svcpp_Free(out.ptr);  // the documented release (Svcpp_UInt64Span_Drop is the other)

    OutU64Span({}, &out, "out");
    EXPECT_EQ(out.ptr, nullptr);
    EXPECT_EQ(out.size, 0u);
    EXPECT_EQ(ErrcOf([&] { OutU64Span(ids, nullptr, "out"); }), Errc::NullArgument);
}

TEST(U64Span, BorrowViewsTheVector) {
    const std::vector<uint64_t> ids{5, 6};
    Svcpp_UInt64Span view = BorrowU64Span(ids);
    EXPECT_EQ(view.ptr, ids.data());
    EXPECT_EQ(view.size, 2u);
    Svcpp_UInt64Span empty = BorrowU64Span({});
    EXPECT_EQ(empty.ptr, nullptr);
    EXPECT_EQ(empty.size, 0u);
}

TEST(U64Span, DropFreesAndZeroes) {
    Svcpp_UInt64Span span{};
    OutU64Span({1, 2}, &span, "out");
    DropU64Span(&span);
    EXPECT_EQ(span.ptr, nullptr);
    EXPECT_EQ(span.size, 0u);
    DropU64Span(&span);  // a zeroed span is Ok
    EXPECT_EQ(ErrcOf([] { DropU64Span(nullptr); }), Errc::NullArgument);
    Svcpp_UInt64Span malformed{nullptr, 3};
    EXPECT_EQ(ErrcOf([&] { DropU64Span(&malformed); }), Errc::NullArgument);
    EXPECT_EQ(malformed.size, 3u);  // rejected: untouched
}

// Svcpp_GuildMinimalSpan stands for every handle span: InSpan is one template over the element type.
core::GuildMinimal Guild(uint64_t id, const char *name) {
    core::GuildMinimal g;
    g.id = id;
    g.name = name;
    return g;
}

TEST(InSpan, CopiesEveryElementAndLeavesTheHandlesAlone) {
    Svcpp_GuildMinimal handles[] = {{NewBox<core::GuildMinimal>(Guild(1, "one"))},
                                    {NewBox<core::GuildMinimal>(Guild(2, "two"))}};
    std::vector<core::GuildMinimal> copies = InSpan<core::GuildMinimal>(Svcpp_GuildMinimalSpan{handles, 2}, "guilds");
    ASSERT_EQ(copies.size(), 2u);
    EXPECT_EQ(copies[0], Guild(1, "one"));
    EXPECT_EQ(copies[1], Guild(2, "two"));
    for (auto &h : handles) {
        EXPECT_TRUE(IsLive<core::GuildMinimal>(&h));  // borrowed: still the caller's
        DropValue<core::GuildMinimal>(&h);
    }
}

TEST(InSpan, EmptyAndMalformed) {
    EXPECT_TRUE(InSpan<core::GuildMinimal>(Svcpp_GuildMinimalSpan{nullptr, 0}, "guilds").empty());
    EXPECT_EQ(ErrcOf([] {
                  InSpan<core::GuildMinimal>(Svcpp_GuildMinimalSpan{nullptr, 1}, "guilds");
              }),
              Errc::NullArgument);
}

TEST(InSpan, ABadElementIsInvalidHandle) {
    Svcpp_GuildMinimal live{NewBox<core::GuildMinimal>(Guild(3, "ok"))};
    Svcpp_GuildMinimal dropped{NewBox<core::GuildMinimal>(Guild(4, "gone"))};
    const Svcpp_GuildMinimal stale = dropped;  // a copy of a handle that is dropped next
    DropValue<core::GuildMinimal>(&dropped);
    Svcpp_LinkedLobby lobby{NewBox<core::LinkedLobby>(core::LinkedLobby{})};
    const Svcpp_GuildMinimal wrongType{lobby.opaque};

    for (const Svcpp_GuildMinimal &bad : {Svcpp_GuildMinimal{}, stale, wrongType}) {
        Svcpp_GuildMinimal span[] = {live, bad};
        EXPECT_EQ(ErrcOf([&] {
                      InSpan<core::GuildMinimal>(Svcpp_GuildMinimalSpan{span, 2}, "guilds");
                  }),
                  Errc::InvalidHandle);
    }
    DropValue<core::GuildMinimal>(&live);
    DropValue<core::LinkedLobby>(&lobby);
}

}  // namespace
}  // namespace svcpp::capi
