// LobbyCatchUp: which lobby messages of a gap are owed to the host, and that each is delivered once whether it comes
// live, in a fetched page, or both (native/SEMANTICS.md "Delivery across drops and restarts").
#include <gtest/gtest.h>

#include "messages/lobby_catch_up.hpp"

using svcpp::core::messages::LobbyCatchUp;

namespace {
constexpr uint64_t kLobby = 7;
constexpr uint64_t kOther = 8;
}  // namespace

TEST(LobbyCatchUp, LiveMessagesAreAdmittedOnceEachWithoutAGap) {
    LobbyCatchUp catchUp;
    EXPECT_TRUE(catchUp.Admit(kLobby, 10));
    EXPECT_TRUE(catchUp.Admit(kLobby, 11));
    EXPECT_TRUE(catchUp.Admit(kOther, 11));  // per lobby
}

TEST(LobbyCatchUp, AGapFetchesAfterTheNewestDeliveredMessageOfEachListedLobby) {
    LobbyCatchUp catchUp;
    catchUp.Admit(kLobby, 10);
    catchUp.Admit(kLobby, 12);
    catchUp.Admit(kOther, 5);
    catchUp.Admit(99, 3);                                   // a lobby the new READY no longer lists: forgotten
    auto fetches = catchUp.BeginGap({kLobby, kOther, 42});  // 42: nothing delivered there yet, nothing owed
    ASSERT_EQ(fetches.size(), 2u);
    EXPECT_EQ(fetches[0].lobbyId, kLobby);
    EXPECT_EQ(fetches[0].after, 12u);
    EXPECT_EQ(fetches[1].lobbyId, kOther);
    EXPECT_EQ(fetches[1].after, 5u);
    EXPECT_TRUE(catchUp.BeginGap({99}).empty());
}

TEST(LobbyCatchUp, AMessageThatComesLiveAndInAPageIsDeliveredOnce) {
    LobbyCatchUp catchUp;
    catchUp.Admit(kLobby, 10);
    const auto fetch = catchUp.BeginGap({kLobby}).at(0);
    EXPECT_TRUE(catchUp.Admit(kLobby, 13));  // live, sent after the new READY
    EXPECT_TRUE(catchUp.Admit(kLobby, 11));  // from the page: sent in the gap
    EXPECT_TRUE(catchUp.Admit(kLobby, 12));
    EXPECT_FALSE(catchUp.Admit(kLobby, 13));  // the page brings 13 again
    EXPECT_EQ(catchUp.PageDone(fetch, 13, false), std::nullopt);
    EXPECT_FALSE(catchUp.Admit(kLobby, 12));  // a late live copy of a fetched message
    EXPECT_TRUE(catchUp.Admit(kLobby, 14));
}

TEST(LobbyCatchUp, AFullPageAsksForTheNextOneFromItsNewestId) {
    LobbyCatchUp catchUp;
    catchUp.Admit(kLobby, 10);
    const auto fetch = catchUp.BeginGap({kLobby}).at(0);
    auto next = catchUp.PageDone(fetch, 30, true);
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->after, 30u);
    EXPECT_TRUE(catchUp.IsCurrent(*next));
    EXPECT_EQ(catchUp.PageDone(*next, 0, false), std::nullopt);  // an empty last page
    EXPECT_FALSE(catchUp.IsCurrent(*next));                      // caught up
}

TEST(LobbyCatchUp, ANewGapDuringACatchUpResumesWhereItHadGotToAndMakesOldPagesStale) {
    LobbyCatchUp catchUp;
    catchUp.Admit(kLobby, 10);
    const auto first = catchUp.BeginGap({kLobby}).at(0);
    catchUp.Admit(kLobby, 50);  // live in the first new session
    const auto next = catchUp.PageDone(first, 20, true);
    ASSERT_TRUE(next.has_value());
    // Dropped again before the next page: fetched up to 20, so the new catch-up starts there, not at 50.
    const auto second = catchUp.BeginGap({kLobby}).at(0);
    EXPECT_EQ(second.after, 20u);
    EXPECT_FALSE(catchUp.IsCurrent(*next));
    EXPECT_EQ(catchUp.PageDone(*next, 40, false), std::nullopt);  // stale: changes nothing
    EXPECT_TRUE(catchUp.IsCurrent(second));
    EXPECT_FALSE(catchUp.Admit(kLobby, 50));  // delivered live in the first new session, now in a page
    EXPECT_TRUE(catchUp.Admit(kLobby, 21));
}

TEST(LobbyCatchUp, ResetOwesNothingAndAbandonStopsTheCatchUp) {
    LobbyCatchUp catchUp;
    catchUp.Admit(kLobby, 10);
    const auto fetch = catchUp.BeginGap({kLobby}).at(0);
    catchUp.Abandon(fetch);
    EXPECT_FALSE(catchUp.IsCurrent(fetch));
    catchUp.Reset();  // a new Connect
    EXPECT_TRUE(catchUp.BeginGap({kLobby}).empty());
}
