// The area services' reducers (users, relationships, presence) and the dispatch table that routes to them: pure
// Apply(type, json) → events on dispatch sequences, without a network or a callback queue.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "presence/presence_service.hpp"
#include "relationships/relationships_service.hpp"
#include "runtime/dispatch_table.hpp"
#include "users/users_service.hpp"

using namespace svcpp::core;
using nlohmann::json;

namespace {

using RelKind = relationships::RelationshipEvent::Kind;
using PresenceKind = presence::PresenceEvent::Kind;

json Ready() {
    return json::parse(R"({"user":{"id":"1","username":"me"},"application":{"id":"500"},
        "relationships":[{"id":"2","type":1,"game_type":0,"user":{"id":"2","username":"bob"}}],
        "presences":[{"user":{"id":"2"},"status":"online","activities":[{"name":"Ours","application_id":"500"}]}]})");
}

std::vector<PresenceKind> Kinds(const std::vector<presence::PresenceEvent> &events) {
    std::vector<PresenceKind> kinds;
    for (const auto &e : events) kinds.push_back(e.kind);
    return kinds;
}

}  // namespace

// ---- users ----

TEST(UsersReducer, ReadySetsTheSignedInUserOnlineWithoutEvents) {
    UserCache users("cdn");
    users.Upsert(ParseUser(json::parse(R"({"id":"9","username":"stale"})")));
    EXPECT_TRUE(users::Apply(users, "READY", Ready()).empty());
    EXPECT_EQ(users.CurrentUserId(), 1u);
    ASSERT_TRUE(users.Get(1));
    EXPECT_EQ(users.Get(1)->status, StatusType::Online);
    EXPECT_FALSE(users.Get(9)) << "a new session starts from an empty cache";
}

TEST(UsersReducer, UserUpdateMergesAndReportsTheUser) {
    UserCache users("cdn");
    users::Apply(users, "READY", Ready());
    auto events = users::Apply(users, "USER_UPDATE", json::parse(R"({"id":"1","username":"renamed"})"));
    EXPECT_EQ(events, (std::vector<users::UserEvent>{{users::UserEvent::Kind::Updated, 1}}));
    EXPECT_EQ(users.Get(1)->username, "renamed");
}

TEST(UsersReducer, UserUpdateWithoutAValidIdChangesNothing) {
    UserCache users("cdn");
    EXPECT_TRUE(users::Apply(users, "USER_UPDATE", json::parse(R"({"id":7,"username":"x"})")).empty());
    EXPECT_FALSE(users.Get(7));
}

// ---- relationships ----

TEST(RelationshipsReducer, ReadyReplacesTheCacheWithoutEvents) {
    UserCache users("cdn");
    EXPECT_TRUE(relationships::Apply(users, "READY", Ready()).empty());
    ASSERT_TRUE(users.Relationships().Get(2));
    EXPECT_EQ(users.Relationships().Get(2)->platform, RelationshipType::Friend);
    EXPECT_EQ(users.Get(2)->username, "bob");
}

TEST(RelationshipsReducer, AddReportsCreatedThenTheGroupChange) {
    UserCache users("cdn");
    relationships::Apply(users, "READY", json::object());
    auto events =
        relationships::Apply(users, "RELATIONSHIP_ADD",
                             json::parse(R"({"id":"3","axis":"game","type":1,"user":{"id":"3","username":"c"}})"));
    EXPECT_EQ(events, (std::vector<relationships::RelationshipEvent>{{RelKind::Created, 3, false},
                                                                     {RelKind::GroupsUpdated, 3, false}}));
    EXPECT_EQ(relationships::GroupOfUser(users, 3), RelationshipGroupType::Offline);
}

TEST(RelationshipsReducer, RemoveOfAnUnknownRelationshipReportsNothing) {
    UserCache users("cdn");
    EXPECT_TRUE(
        relationships::Apply(users, "RELATIONSHIP_REMOVE", json::parse(R"({"id":"3","axis":"platform"})")).empty());
}

TEST(RelationshipsReducer, RemoveReportsDeletedAndTheUserLeavesTheGroups) {
    UserCache users("cdn");
    relationships::Apply(users, "READY", Ready());
    auto events = relationships::Apply(users, "RELATIONSHIP_REMOVE", json::parse(R"({"id":"2","axis":"platform"})"));
    EXPECT_EQ(events, (std::vector<relationships::RelationshipEvent>{{RelKind::Deleted, 2, true},
                                                                     {RelKind::GroupsUpdated, 2, false}}));
    EXPECT_EQ(relationships::GroupOfUser(users, 2), std::nullopt);
}

TEST(RelationshipsReducer, OtherTypesAreIgnored) {
    UserCache users("cdn");
    EXPECT_TRUE(relationships::Apply(users, "PRESENCE_UPDATE", json::parse(R"({"id":"2"})")).empty());
}

// ---- presence ----

TEST(PresenceReducer, ReadyAppliesPresencesWithoutEvents) {
    UserCache users("cdn");
    relationships::Apply(users, "READY", Ready());
    EXPECT_TRUE(presence::Apply(users, {500}, "READY", Ready()).empty());
    EXPECT_EQ(users.Get(2)->status, StatusType::Online);
    EXPECT_TRUE(users.Get(2)->gameActivity.has_value());
    EXPECT_EQ(relationships::GroupOfUser(users, 2), RelationshipGroupType::OnlinePlayingGame);
}

TEST(PresenceReducer, AChangeReportsTheUserThenTheGroupChange) {
    UserCache users("cdn");
    relationships::Apply(users, "READY", Ready());
    presence::Apply(users, {500}, "READY", Ready());
    auto events = presence::Apply(users, {500}, "PRESENCE_UPDATE",
                                  json::parse(R"({"user":{"id":"2"},"status":"idle","activities":[]})"));
    EXPECT_EQ(Kinds(events), (std::vector<PresenceKind>{PresenceKind::UserUpdated, PresenceKind::GroupsUpdated}));
    EXPECT_EQ(relationships::GroupOfUser(users, 2), RelationshipGroupType::OnlineElsewhere);
}

TEST(PresenceReducer, AnUnchangedPresenceReportsNothing) {
    UserCache users("cdn");
    relationships::Apply(users, "READY", Ready());
    presence::Apply(users, {500}, "READY", Ready());
    auto same =
        json::parse(R"({"user":{"id":"2"},"status":"online","activities":[{"name":"Ours","application_id":"500"}]})");
    EXPECT_TRUE(presence::Apply(users, {500}, "PRESENCE_UPDATE", same).empty());
}

TEST(PresenceReducer, AMissingStatusMeansOffline) {
    UserCache users("cdn");
    relationships::Apply(users, "READY", Ready());
    presence::Apply(users, {500}, "READY", Ready());
    auto events = presence::Apply(users, {500}, "PRESENCE_UPDATE", json::parse(R"({"user":{"id":"2"}})"));
    EXPECT_EQ(Kinds(events), (std::vector<PresenceKind>{PresenceKind::UserUpdated, PresenceKind::GroupsUpdated}));
    EXPECT_EQ(users.Get(2)->status, StatusType::Offline);
}

TEST(PresenceReducer, InvitesAreReportedWithTheirPayload) {
    UserCache users("cdn");
    auto events = presence::Apply(users, {500}, "ACTIVITY_INVITE_CREATE",
                                  json::parse(R"({"message_id":"11","channel_id":"12","sender_id":"13","type":1})"));
    ASSERT_EQ(Kinds(events), (std::vector<PresenceKind>{PresenceKind::InviteCreated}));
    EXPECT_EQ(events[0].invite.senderId, 13u);
    EXPECT_EQ(Kinds(presence::Apply(users, {500}, "ACTIVITY_INVITE_UPDATE", json::parse(R"({"sender_id":"13"})"))),
              (std::vector<PresenceKind>{PresenceKind::InviteUpdated}));
}

TEST(PresenceReducer, ReadyApplicationIdIsRead) {
    EXPECT_EQ(presence::ReadyApplicationId(Ready()), 500u);
    EXPECT_EQ(presence::ReadyApplicationId(json::object()), 0u);
}

// ---- the dispatch table ----

TEST(DispatchTable, RunsTheHandlersOfOneTypeInRegistrationOrder) {
    DispatchTable table;
    std::vector<std::string> seen;
    table.On("READY", [&](std::string_view type, const json &) { seen.push_back("users:" + std::string(type)); });
    table.On("READY", [&](std::string_view type, const json &) { seen.push_back("lobbies:" + std::string(type)); });
    table.On("LOBBY_CREATE",
             [&](std::string_view type, const json &) { seen.push_back("lobbies:" + std::string(type)); });
    EXPECT_TRUE(table.Dispatch("READY", json::object()));
    EXPECT_EQ(seen, (std::vector<std::string>{"users:READY", "lobbies:READY"}));
    EXPECT_TRUE(table.Handles("LOBBY_CREATE"));
}

TEST(DispatchTable, AnUnknownTypeRunsNothing) {
    DispatchTable table;
    bool ran = false;
    table.On("READY", [&](std::string_view, const json &) { ran = true; });
    EXPECT_FALSE(table.Dispatch("SOMETHING_NEW", json::object()));
    EXPECT_FALSE(ran);
}
