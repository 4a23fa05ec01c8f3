// Relationships in the core: the cache (READY records, one axis per dispatch, the spam flag), the local
// precondition checks of every change method, and the friends-list views (groups, their order, search).
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "relationships/relationship_groups.hpp"
#include "relationships/relationship_handle.hpp"
#include "relationships/relationship_rules.hpp"
#include "users/user_handle.hpp"

using namespace svcpp::core;
using nlohmann::json;
using relationships::Action;
using relationships::Axis;
using relationships::CheckRequestByName;
using relationships::CheckTransition;

namespace {

RelationshipChange Change(uint64_t id, bool platform, RelationshipType type, bool spam = false) {
    return {id, platform, type, spam};
}

UserRecord User(uint64_t id, std::string username, std::optional<std::string> globalName, StatusType status,
                bool playing = false) {
    UserRecord u;
    u.id = id;
    u.username = std::move(username);
    u.globalName = std::move(globalName);
    u.status = status;
    if (playing) u.gameActivity = Activity{};
    return u;
}

void Put(UserCache &cache, const UserRecord &u) {
    cache.Upsert(u);
    cache.SetPresence(u.id, u.status, u.gameActivity);
}

}  // namespace

// ---- parsing ----

TEST(RelationshipJson, ReadsBothAxesAndTheSpamFlag) {
    auto r = ParseRelationship(
        json::parse(R"({"id":"42","type":3,"game_type":1,"is_spam_request":true,"user":{"id":"42"}})"));
    EXPECT_EQ(r, (RelationshipRecord{42, RelationshipType::PendingIncoming, RelationshipType::Friend, true}));
}

TEST(RelationshipJson, UnknownTypesAndAGameBlockReadAsNone) {
    auto r = ParseRelationship(json::parse(R"({"id":"5","type":9,"game_type":2})"));
    EXPECT_EQ(r.platform, RelationshipType::None);
    EXPECT_EQ(r.game, RelationshipType::None);
    EXPECT_EQ(ParseRelationship(json::parse(R"({"id":5,"type":"1"})")).id, 0u);  // numeric ids are not snowflakes
}

TEST(RelationshipJson, ChangesNameTheirAxisAndRemoveMeansNone) {
    auto add = ParseRelationshipChange(json::parse(R"({"id":"7","axis":"game","type":4})"), false);
    EXPECT_EQ(add.id, 7u);
    EXPECT_FALSE(add.platformAxis);
    EXPECT_EQ(add.type, RelationshipType::PendingOutgoing);
    auto remove = ParseRelationshipChange(json::parse(R"({"id":"7","axis":"platform","type":1})"), true);
    EXPECT_TRUE(remove.platformAxis);
    EXPECT_EQ(remove.type, RelationshipType::None);
}

// ---- cache ----

TEST(RelationshipCache, ReplaceDropsEmptyRecordsAndAllIsOrderedById) {
    RelationshipCache cache;
    cache.Replace({{9, RelationshipType::Friend}, {3, RelationshipType::None, RelationshipType::Friend}, {4}});
    auto all = cache.All();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].id, 3u);
    EXPECT_EQ(all[1].id, 9u);
    EXPECT_FALSE(cache.Get(4));
}

TEST(RelationshipCache, AxesChangeIndependentlyAndARecordGoesWithItsLastAxis) {
    RelationshipCache cache;
    EXPECT_TRUE(cache.Apply(Change(1, true, RelationshipType::Friend)));
    EXPECT_TRUE(cache.Apply(Change(1, false, RelationshipType::PendingOutgoing)));
    EXPECT_EQ(*cache.Get(1),
              (RelationshipRecord{1, RelationshipType::Friend, RelationshipType::PendingOutgoing, false}));
    EXPECT_FALSE(cache.Apply(Change(1, true, RelationshipType::Friend)));  // no change, no event
    EXPECT_TRUE(cache.Apply(Change(1, true, RelationshipType::None)));
    EXPECT_TRUE(cache.Get(1));
    EXPECT_TRUE(cache.Apply(Change(1, false, RelationshipType::None)));
    EXPECT_FALSE(cache.Get(1));
    EXPECT_FALSE(cache.Apply(Change(1, false, RelationshipType::None)));
    EXPECT_FALSE(cache.Apply(Change(0, true, RelationshipType::Friend)));
}

TEST(RelationshipCache, TheSpamFlagLastsWhileARequestIsIncoming) {
    RelationshipCache cache;
    cache.Apply(Change(2, true, RelationshipType::PendingIncoming, true));
    EXPECT_TRUE(cache.Get(2)->isSpamRequest);
    cache.Apply(Change(2, false, RelationshipType::Friend));  // the other axis leaves the platform request pending
    EXPECT_TRUE(cache.Get(2)->isSpamRequest);
    cache.Apply(Change(2, true, RelationshipType::Friend));  // accepted
    EXPECT_FALSE(cache.Get(2)->isSpamRequest);
}

// ---- rules ----

TEST(RelationshipRules, AcceptAndRejectNeedAnIncomingRequestOnThatAxis) {
    const relationships::Self self{1, false};
    RelationshipRecord incoming{2, RelationshipType::PendingIncoming, RelationshipType::None};
    EXPECT_FALSE(CheckTransition(self, 2, incoming, Action::Accept, Axis::Platform));
    EXPECT_FALSE(CheckTransition(self, 2, incoming, Action::Reject, Axis::Platform));
    EXPECT_EQ(*CheckTransition(self, 2, incoming, Action::Accept, Axis::Game),
              "no pending incoming game friend request from this user");
    EXPECT_TRUE(CheckTransition(self, 2, RelationshipRecord{2}, Action::Reject, Axis::Platform));
}

TEST(RelationshipRules, CancelNeedsAnOutgoingRequest) {
    const relationships::Self self{1, false};
    EXPECT_FALSE(CheckTransition(self, 2, {2, RelationshipType::None, RelationshipType::PendingOutgoing},
                                 Action::Cancel, Axis::Game));
    EXPECT_EQ(*CheckTransition(self, 2, {2, RelationshipType::PendingIncoming}, Action::Cancel, Axis::Platform),
              "no pending outgoing platform friend request to this user");
}

TEST(RelationshipRules, RequestsAreRefusedToFriendsBlockedUsersAndTwice) {
    const relationships::Self self{1, false};
    EXPECT_FALSE(CheckTransition(self, 2, {2}, Action::SendRequest, Axis::Platform));
    EXPECT_FALSE(CheckTransition(self, 2, {2, RelationshipType::PendingIncoming}, Action::SendRequest,
                                 Axis::Platform));  // accepts it
    EXPECT_EQ(*CheckTransition(self, 2, {2, RelationshipType::Friend}, Action::SendRequest, Axis::Platform),
              "already platform friends");
    EXPECT_FALSE(CheckTransition(self, 2, {2, RelationshipType::Friend}, Action::SendRequest,
                                 Axis::Game));  // the game axis is separate
    EXPECT_TRUE(CheckTransition(self, 2, {2, RelationshipType::PendingOutgoing}, Action::SendRequest, Axis::Platform));
    EXPECT_EQ(*CheckTransition(self, 2, {2, RelationshipType::Blocked}, Action::SendRequest, Axis::Game),
              "the user is blocked: unblock them first");
}

TEST(RelationshipRules, RemoveBlockAndUnblock) {
    const relationships::Self self{1, false};
    EXPECT_FALSE(CheckTransition(self, 2, {2, RelationshipType::None, RelationshipType::Friend}, Action::Remove,
                                 Axis::Platform));  // either axis
    EXPECT_TRUE(
        CheckTransition(self, 2, {2, RelationshipType::Friend, RelationshipType::None}, Action::Remove, Axis::Game));
    EXPECT_TRUE(CheckTransition(self, 2, {2, RelationshipType::PendingOutgoing}, Action::Remove, Axis::Platform));
    EXPECT_FALSE(CheckTransition(self, 2, {2, RelationshipType::Friend}, Action::Block, Axis::Platform));
    EXPECT_EQ(*CheckTransition(self, 2, {2, RelationshipType::Blocked}, Action::Block, Axis::Platform),
              "the user is already blocked");
    EXPECT_FALSE(CheckTransition(self, 2, {2, RelationshipType::Blocked}, Action::Unblock, Axis::Platform));
    EXPECT_EQ(*CheckTransition(self, 2, {2}, Action::Unblock, Axis::Platform), "the user is not blocked");
}

TEST(RelationshipRules, IdsSelfAndProvisionalAccounts) {
    EXPECT_EQ(*CheckTransition({1, false}, 0, {0}, Action::SendRequest, Axis::Platform), "userId must not be 0");
    EXPECT_EQ(*CheckTransition({1, false}, 1, {1}, Action::Block, Axis::Platform),
              "a relationship with yourself is not possible");
    const relationships::Self provisional{1, true};
    EXPECT_EQ(*CheckTransition(provisional, 2, {2}, Action::SendRequest, Axis::Platform),
              "provisional accounts have no platform relationships");
    EXPECT_FALSE(CheckTransition(provisional, 2, {2}, Action::SendRequest, Axis::Game));
    EXPECT_FALSE(CheckTransition(provisional, 2, {2}, Action::Block, Axis::Platform));
    EXPECT_EQ(*CheckRequestByName({1, false}, "Me", "", Axis::Platform), "username must not be empty");
    EXPECT_EQ(*CheckRequestByName({1, false}, "Me", "mE", Axis::Game), "a relationship with yourself is not possible");
    EXPECT_TRUE(CheckRequestByName(provisional, "me", "other", Axis::Platform));
    EXPECT_FALSE(CheckRequestByName(provisional, "me", "other", Axis::Game));
}

// ---- groups, order, search ----

TEST(RelationshipGroups, FriendsOnEitherAxisGroupedByStatusAndThisGamesActivity) {
    UserCache users("https://cdn");
    Put(users, User(10, "playing", std::nullopt, StatusType::Online, true));
    Put(users, User(11, "elsewhere", std::nullopt, StatusType::Idle));
    Put(users,
        User(12, "offline", std::nullopt, StatusType::Offline, true));  // an activity while offline does not count
    Put(users, User(13, "invisible", std::nullopt, StatusType::Invisible));
    Put(users, User(14, "pending", std::nullopt, StatusType::Online));
    Put(users, User(15, "gamefriend", std::nullopt, StatusType::Dnd, true));
    std::vector<RelationshipRecord> rels = {
        {10, RelationshipType::Friend},          {11, RelationshipType::Friend},
        {12, RelationshipType::Friend},          {13, RelationshipType::Friend},
        {14, RelationshipType::PendingIncoming}, {15, RelationshipType::None, RelationshipType::Friend},
        {16, RelationshipType::Friend},  // not cached: Offline
        {17, RelationshipType::Blocked},
    };
    EXPECT_EQ(relationships::MembersOf(RelationshipGroupType::OnlinePlayingGame, rels, users),
              (std::vector<uint64_t>{15, 10}));
    EXPECT_EQ(relationships::MembersOf(RelationshipGroupType::OnlineElsewhere, rels, users),
              (std::vector<uint64_t>{11}));
    EXPECT_EQ(relationships::MembersOf(RelationshipGroupType::Offline, rels, users),
              (std::vector<uint64_t>{16, 13, 12}));
}

TEST(RelationshipGroups, OrderedByDisplayNameIgnoringCaseThenById) {
    UserCache users("https://cdn");
    Put(users, User(30, "zed", std::string("alpha"), StatusType::Online));
    Put(users, User(20, "Bravo", std::nullopt, StatusType::Online));
    Put(users, User(25, "bravo", std::nullopt, StatusType::Online));
    Put(users,
        User(5, "charlie", std::string(""), StatusType::Online));  // an empty global name falls back to the username
    std::vector<RelationshipRecord> rels = {{5, RelationshipType::Friend},
                                            {20, RelationshipType::Friend},
                                            {25, RelationshipType::Friend},
                                            {30, RelationshipType::Friend}};
    EXPECT_EQ(relationships::MembersOf(RelationshipGroupType::OnlineElsewhere, rels, users),
              (std::vector<uint64_t>{30, 20, 25, 5}));
}

TEST(RelationshipGroups, SearchMatchesUsernameOrDisplayNameOfFriendsOnly) {
    UserCache users("https://cdn");
    Put(users, User(1, "DragonSlayer", std::string("Anna"), StatusType::Online));
    Put(users, User(2, "annabel", std::nullopt, StatusType::Offline));
    Put(users, User(3, "anna_pending", std::nullopt, StatusType::Online));
    std::vector<RelationshipRecord> rels = {{1, RelationshipType::Friend},
                                            {2, RelationshipType::None, RelationshipType::Friend},
                                            {3, RelationshipType::PendingOutgoing}};
    EXPECT_EQ(relationships::SearchFriends("ANN", rels, users), (std::vector<uint64_t>{1, 2}));
    EXPECT_EQ(relationships::SearchFriends("slay", rels, users), (std::vector<uint64_t>{1}));
    EXPECT_TRUE(relationships::SearchFriends("zzz", rels, users).empty());
}

// ---- handles ----

TEST(RelationshipHandle, ReadsTheCurrentStateAndDefaultsOnceTheCacheIsGone) {
    auto users = std::make_shared<UserCache>("https://cdn");
    users->Upsert(User(8, "eight", std::nullopt, StatusType::Offline));
    RelationshipHandle handle(users, 8);
    EXPECT_TRUE(handle.IsValid());
    EXPECT_EQ(handle.PlatformRelationshipType(), RelationshipType::None);
    users->Relationships().Apply(Change(8, true, RelationshipType::PendingIncoming, true));
    EXPECT_EQ(handle.PlatformRelationshipType(), RelationshipType::PendingIncoming);
    EXPECT_TRUE(handle.IsSpamRequest());
    ASSERT_TRUE(handle.User());
    EXPECT_EQ(handle.User()->Username(), "eight");
    EXPECT_EQ(UserHandle(users, 8).Relationship().PlatformRelationshipType(), RelationshipType::PendingIncoming);
    users.reset();
    EXPECT_FALSE(handle.IsValid());
    EXPECT_EQ(handle.Id(), 0u);
    EXPECT_EQ(handle.PlatformRelationshipType(), RelationshipType::None);
    EXPECT_FALSE(handle.User());
}

TEST(UserCacheRelationships, ClearForgetsRelationshipsAndUpsertKeepsPresence) {
    UserCache users("https://cdn");
    Put(users, User(3, "three", std::nullopt, StatusType::Online, true));
    users.Relationships().Apply(Change(3, true, RelationshipType::Friend));
    users.Upsert(User(3, "renamed", std::nullopt, StatusType::Offline));  // a profile update: presence stays
    EXPECT_EQ(users.Get(3)->status, StatusType::Online);
    EXPECT_TRUE(users.Get(3)->gameActivity);
    EXPECT_FALSE(users.SetPresence(3, StatusType::Online, Activity{}));  // unchanged
    users.Clear();
    EXPECT_FALSE(users.Relationships().Get(3));
}
