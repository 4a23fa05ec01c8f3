// Presence in the core: activities to and from the wire (the seconds -> milliseconds rule, optional parts left out,
// tolerant parsing, this application's activity picked out of a presence), status strings, every activity limit
// of UpdateRichPresence's local validation (native/SEMANTICS.md "Social layer: relationships…"), and the invite object.
#include <gtest/gtest.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "invites/activity_invite_json.hpp"
#include "presence/activity_validation.hpp"
#include "presence/presence_json.hpp"
#include "values/activity.hpp"

using namespace svcpp::core;
using nlohmann::json;

namespace {

Activity Joinable() {
    Activity a;
    a.type = ActivityTypes::Playing;
    a.state = "In a group";
    a.party = ActivityParty{"party-1", 1, 4, ActivityPartyPrivacy::Public};
    a.secrets = ActivitySecrets{"join-secret"};
    return a;
}

std::string Repeat(size_t n, const std::string &unit = "a") {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += unit;
    return s;
}

}  // namespace

TEST(PresenceJson, TimestampsBelow10To11AreSeconds) {
    EXPECT_EQ(presence::ToMilliseconds(0), 0u);
    EXPECT_EQ(presence::ToMilliseconds(1700000000), 1700000000000u);
    EXPECT_EQ(presence::ToMilliseconds(99999999999), 99999999999000u);
    EXPECT_EQ(presence::ToMilliseconds(100000000000), 100000000000u);
    EXPECT_EQ(presence::ToMilliseconds(1700000000123), 1700000000123u);
}

TEST(PresenceJson, ActivityToWireSendsOnlyWhatIsSetWithMilliseconds) {
    Activity a = Joinable();
    a.timestamps = ActivityTimestamps{1700000000, 0};
    a.assets = ActivityAssets{};
    a.assets->largeImage = "map";
    a.parentApplicationId = 77;
    a.supportedPlatforms = static_cast<ActivityGamePlatforms>(1 | 8);
    a.applicationId = 5;  // the platform stamps it: never sent
    json wire = presence::ActivityToWire(a);
    EXPECT_EQ(wire,
              json::parse(R"({"type":0,"state":"In a group","parent_application_id":"77","assets":{"large_image":"map"},
        "timestamps":{"start":1700000000000},"party":{"id":"party-1","size":[1,4],"privacy":1},
        "secrets":{"join":"join-secret"},
        "supported_platforms":9})"));
}

TEST(PresenceJson, ActivityFromWireReadsEveryPartAndToleratesWrongTypes) {
    auto a = presence::ActivityFromWire(
        json::parse(R"({"name":"Game","type":5,"state":"s1","details":7,"application_id":"42",
        "status_display_type":2,"assets":{"small_text":"hi"},"timestamps":{"start":1700000000,"end":"x"},
        "party":{"id":"p","size":[2,5],"privacy":1},"secrets":{"join":"j"},"supported_platforms":3})"));
    EXPECT_EQ(a.name, "Game");
    EXPECT_EQ(a.type, ActivityTypes::Competing);
    EXPECT_EQ(a.state, "s1");
    EXPECT_FALSE(a.details);
    EXPECT_EQ(a.applicationId, 42u);
    EXPECT_EQ(a.statusDisplayType, StatusDisplayTypes::Details);
    EXPECT_EQ(a.assets->smallText, "hi");
    EXPECT_EQ(a.timestamps->start, 1700000000000u);
    EXPECT_EQ(a.timestamps->end, 0u);
    EXPECT_EQ(a.party, (ActivityParty{"p", 2, 5, ActivityPartyPrivacy::Public}));
    EXPECT_EQ(a.secrets->join, "j");
    EXPECT_EQ(static_cast<int32_t>(a.supportedPlatforms), 3);
    auto odd =
        presence::ActivityFromWire(json::parse(R"({"type":99,"party":{"size":"x"},"supported_platforms":1024})"));
    EXPECT_EQ(odd.type, ActivityTypes::Playing);
    EXPECT_EQ(odd.party->currentSize, 0);
    EXPECT_EQ(static_cast<int32_t>(odd.supportedPlatforms), 0);
}

TEST(PresenceJson, GameActivityIsTheOneOfThisApplication) {
    json activities =
        json::parse(R"([{"name":"Other","application_id":"1"},"junk",{"name":"Ours","application_id":"2"}])");
    EXPECT_EQ(presence::GameActivityOf(activities, 2)->name, "Ours");
    EXPECT_FALSE(presence::GameActivityOf(activities, 3));
    EXPECT_FALSE(presence::GameActivityOf(activities, 0));
    EXPECT_FALSE(presence::GameActivityOf(json::object(), 2));
}

TEST(PresenceJson, StatusStrings) {
    EXPECT_EQ(presence::ParseStatus("dnd"), StatusType::Dnd);
    EXPECT_EQ(presence::ParseStatus("offline"), StatusType::Offline);
    EXPECT_EQ(presence::ParseStatus("away"), StatusType::Unknown);
    EXPECT_STREQ(presence::SettableStatusWire(StatusType::Invisible), "invisible");
    EXPECT_EQ(presence::SettableStatusWire(StatusType::Offline), nullptr);
    EXPECT_EQ(presence::SettableStatusWire(StatusType::Streaming), nullptr);
}

TEST(ActivityValidation, AJoinableActivityPasses) { EXPECT_FALSE(presence::ValidateActivity(Joinable())); }

TEST(ActivityValidation, OnlyPlayingListeningWatchingCompeting) {
    for (auto type : {ActivityTypes::Streaming, ActivityTypes::CustomStatus, ActivityTypes::HangStatus}) {
        Activity a = Joinable();
        a.type = type;
        EXPECT_TRUE(presence::ValidateActivity(a)) << ToString(type);
    }
    Activity a = Joinable();
    a.type = ActivityTypes::Competing;
    EXPECT_FALSE(presence::ValidateActivity(a));
}

// Each string limit of UpdateRichPresence (native/SEMANTICS.md "Social layer: relationships, presence, invites") once
// below and once above its range, by the field name the error must carry.
TEST(ActivityValidation, EveryStringLimitNamesItsField) {
    struct Case {
        const char *field;
        size_t min, max;
        std::function<void(Activity &, std::string)> set;
    };
    const std::vector<Case> cases = {
        {"name", 1, 128, [](Activity &a, std::string v) { a.name = v; }},
        {"state", 2, 128, [](Activity &a, std::string v) { a.state = v; }},
        {"stateUrl", 2, 256, [](Activity &a, std::string v) { a.stateUrl = v; }},
        {"details", 2, 128, [](Activity &a, std::string v) { a.details = v; }},
        {"detailsUrl", 2, 256, [](Activity &a, std::string v) { a.detailsUrl = v; }},
        {"assets.largeImage", 1, 300, [](Activity &a, std::string v) { a.assets.emplace().largeImage = v; }},
        {"assets.largeText", 2, 128, [](Activity &a, std::string v) { a.assets.emplace().largeText = v; }},
        {"assets.largeUrl", 1, 256, [](Activity &a, std::string v) { a.assets.emplace().largeUrl = v; }},
        {"assets.smallImage", 1, 300, [](Activity &a, std::string v) { a.assets.emplace().smallImage = v; }},
        {"assets.smallText", 2, 128, [](Activity &a, std::string v) { a.assets.emplace().smallText = v; }},
        {"assets.smallUrl", 1, 256, [](Activity &a, std::string v) { a.assets.emplace().smallUrl = v; }},
        {"assets.inviteCoverImage", 1, 300,
         [](Activity &a, std::string v) { a.assets.emplace().inviteCoverImage = v; }},
        {"party.id", 2, 128, [](Activity &a, std::string v) { a.party->id = v; }},
        {"secrets.join", 2, 128, [](Activity &a, std::string v) { a.secrets->join = v; }},
    };
    for (const auto &c : cases) {
        for (size_t ok : {c.min, c.max}) {
            Activity a = Joinable();
            c.set(a, Repeat(ok, "é"));  // counted in characters, not bytes
            EXPECT_FALSE(presence::ValidateActivity(a)) << c.field << " " << ok;
        }
        for (size_t bad : {c.min - 1, c.max + 1}) {
            if (bad == 0 && std::string(c.field) == "name") continue;  // an empty name means "the application's name"
            Activity a = Joinable();
            c.set(a, Repeat(bad));
            auto error = presence::ValidateActivity(a);
            ASSERT_TRUE(error) << c.field << " " << bad;
            EXPECT_EQ(error->rfind(std::string(c.field) + " must be", 0), 0u) << *error;
        }
    }
}

TEST(ActivityValidation, AtMostTwoButtonsEachWithinItsLimits) {
    Activity a = Joinable();
    AddButton(a, ActivityButton{"Join", "https://example.test/join"});
    AddButton(a, ActivityButton{Repeat(32), Repeat(512)});
    EXPECT_FALSE(presence::ValidateActivity(a));
    a.buttons[1].label = "";
    EXPECT_EQ(*presence::ValidateActivity(a), "buttons[1].label must be 1–32 characters (got 0)");
    a.buttons[1].label = "ok";
    a.buttons[0].url = "";
    EXPECT_EQ(*presence::ValidateActivity(a), "buttons[0].url must be 1–512 characters (got 0)");
    a.buttons[0].url = "u";
    AddButton(a, ActivityButton{"Third", "https://example.test"});
    EXPECT_EQ(*presence::ValidateActivity(a), "buttons: at most 2 (got 3)");
}

TEST(ActivityValue, AddButtonGetButtonsEquals) {
    Activity a = Joinable();
    Activity b = Joinable();
    EXPECT_TRUE(Equals(a, b));
    AddButton(a, ActivityButton{"One", "https://one.test"});
    EXPECT_FALSE(Equals(a, b));
    AddButton(b, ActivityButton{"One", "https://one.test"});
    EXPECT_TRUE(Equals(a, b));
    AddButton(a, ActivityButton{"Two", "https://two.test"});
    ASSERT_EQ(GetButtons(a).size(), 2u);
    EXPECT_EQ(GetButtons(a)[1].label, "Two");
}

TEST(PresenceJson, ButtonsGoOutAndComeBackWithTheirUrls) {
    Activity a;
    AddButton(a, ActivityButton{"Join", "https://j.test"});
    json wire = presence::ActivityToWire(a);
    EXPECT_EQ(wire["buttons"], json::parse(R"([{"label":"Join","url":"https://j.test"}])"));
    auto back = presence::ActivityFromWire(
        json::parse(R"({"buttons":[{"label":"Join","url":"https://j.test"},"junk",{"label":"x"}]})"));
    ASSERT_EQ(back.buttons.size(), 2u);
    EXPECT_EQ(back.buttons[0], (ActivityButton{"Join", "https://j.test"}));
    EXPECT_EQ(back.buttons[1], (ActivityButton{"x", ""}));
}

TEST(ActivityValidation, PartySizesAndTimestamps) {
    auto withParty = [](int32_t current, int32_t max) {
        Activity a = Joinable();
        a.party->currentSize = current;
        a.party->maxSize = max;
        return presence::ValidateActivity(a);
    };
    EXPECT_EQ(*withParty(0, 4), "party.currentSize must be at least 1");
    EXPECT_EQ(*withParty(1, -1), "party.maxSize must not be negative");
    EXPECT_EQ(*withParty(5, 4), "party.maxSize must not be below party.currentSize");
    EXPECT_FALSE(withParty(5, 0));  // 0 = no maximum shown
    Activity a = Joinable();
    a.timestamps = ActivityTimestamps{1700000000, 1600000000000};  // seconds vs ms: compared after conversion
    EXPECT_EQ(*presence::ValidateActivity(a), "timestamps.end must not be before timestamps.start");
    a.timestamps = ActivityTimestamps{1700000000, 1700000001000};
    EXPECT_FALSE(presence::ValidateActivity(a));
}

TEST(ActivityInviteJson, ReadsTheInviteObject) {
    auto invite = invites::ParseActivityInvite(
        json::parse(R"({"message_id":"11","channel_id":"12","sender_id":"13","recipient_id":"14",
        "type":1,"application_id":"15","parent_application_id":null,"party_id":"p",
        "session_id":"s","is_valid":true})"));
    EXPECT_EQ(invite, (ActivityInvite{13, 12, 11, ActivityActionTypes::Join, 15, 0, "p", "s", true}));
    EXPECT_EQ(invites::ParseActivityInvite(json::parse(R"({"type":3})")).type, ActivityActionTypes::Invalid);
    EXPECT_EQ(invites::InviteRequestBody(ActivityActionTypes::JoinRequest, ""), json::parse(R"({"type":5})"));
    EXPECT_EQ(invites::InviteRequestBody(ActivityActionTypes::Join, "come"),
              json::parse(R"({"type":1,"content":"come"})"));
    EXPECT_EQ(invites::JoinSecretOf(json::parse(R"({"secret":"abc"})")), "abc");
}
