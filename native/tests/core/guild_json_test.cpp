// The platform's guild and channel JSON -> GuildMinimal / GuildChannel: what the mapping tolerates (wrong types,
// missing ids) and the rules that the loopback test of native/tests/capi/spans.c does not reach (ties, NSFW,
// missing permission bits, overwrites of other roles).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "guilds/guild_json.hpp"

using namespace svcpp::core;
using nlohmann::json;

TEST(GuildJson, UserGuildsSkipEntriesWithoutAnId) {
    auto guilds =
        guilds::ParseUserGuilds(json::parse(R"([{"id":"7","name":"Seven"},{"name":"no id"},{"id":7},"x",{"id":"8"}])"));
    ASSERT_EQ(guilds.size(), 2u);
    EXPECT_EQ(guilds[0], (GuildMinimal{7, "Seven"}));
    EXPECT_EQ(guilds[1], (GuildMinimal{8, ""}));
    EXPECT_TRUE(guilds::ParseUserGuilds(json::object()).empty());
}

TEST(GuildJson, ChannelsSortByPositionThenId) {
    auto channels = guilds::ParseGuildChannels(
        json::parse(R"([{"id":"9","position":1},{"id":"3","position":1},{"id":"5","position":0}])"), 1);
    ASSERT_EQ(channels.size(), 3u);
    EXPECT_EQ(channels[0].id, 5u);
    EXPECT_EQ(channels[1].id, 3u);
    EXPECT_EQ(channels[2].id, 9u);
}

TEST(GuildJson, LinkableNeedsATextChannelNotNsfwAndAllThreePermissions) {
    const std::string all = std::to_string(guilds::kManageChannels | guilds::kViewChannel | guilds::kSendMessages);
    const std::string noManage = std::to_string(guilds::kViewChannel | guilds::kSendMessages);
    auto channels = guilds::ParseGuildChannels(
        json::array({
            {{"id", "1"}, {"type", 0}, {"position", 0}, {"permissions", all}},
            {{"id", "2"}, {"type", 0}, {"position", 1}, {"permissions", all}, {"nsfw", true}},
            {{"id", "3"}, {"type", 0}, {"position", 2}, {"permissions", noManage}},
            {{"id", "4"}, {"type", 0}, {"position", 3}},
        }),
        1);
    ASSERT_EQ(channels.size(), 4u);
    EXPECT_TRUE(channels[0].isLinkable);
    EXPECT_FALSE(channels[1].isLinkable);
    EXPECT_FALSE(channels[2].isLinkable);
    EXPECT_FALSE(channels[3].isLinkable);
}

TEST(GuildJson, OnlyAnEveryoneOverwriteDenyingViewOrSendHidesAChannelFromMembers) {
    const std::string send = std::to_string(guilds::kSendMessages);
    auto channels = guilds::ParseGuildChannels(
        json::array({
            {{"id", "1"},
             {"position", 0},
             {"permission_overwrites", json::array({{{"id", "42"}, {"type", 0}, {"deny", send}}})}},
            {{"id", "2"},
             {"position", 1},
             {"permission_overwrites", json::array({{{"id", "43"}, {"type", 0}, {"deny", send}}})}},
            {{"id", "3"},
             {"position", 2},
             {"permission_overwrites", json::array({{{"id", "42"}, {"type", 1}, {"deny", send}}})}},
            {{"id", "4"},
             {"position", 3},
             {"permission_overwrites", json::array({{{"id", "42"}, {"type", 0}, {"deny", "16"}}})}},
        }),
        42);
    ASSERT_EQ(channels.size(), 4u);
    EXPECT_FALSE(channels[0].isViewableAndWriteableByAllMembers);  // @everyone (role id = guild id) cannot send
    EXPECT_TRUE(channels[1].isViewableAndWriteableByAllMembers);   // another role
    EXPECT_TRUE(channels[2].isViewableAndWriteableByAllMembers);   // a member overwrite
    EXPECT_TRUE(channels[3].isViewableAndWriteableByAllMembers);   // denies Manage Channels only
}

TEST(GuildJson, WrongTypesReadAsDefaultsInsteadOfThrowing) {
    auto channels = guilds::ParseGuildChannels(
        json::parse(
            R"([{"id":"1","type":"text","position":"top","nsfw":"no","parent_id":5,"permissions":12,"name":null,
                 "permission_overwrites":{}}])"),
        1);
    ASSERT_EQ(channels.size(), 1u);
    EXPECT_EQ(channels[0].type, ChannelType::GuildText);
    EXPECT_EQ(channels[0].position, 0);
    EXPECT_FALSE(channels[0].parentId.has_value());
    EXPECT_EQ(channels[0].name, "");
    EXPECT_FALSE(channels[0].isLinkable);
    EXPECT_TRUE(channels[0].isViewableAndWriteableByAllMembers);
    EXPECT_FALSE(channels[0].linkedLobby.has_value());
}

TEST(GuildJson, LinkedLobbyIsReadAndALinkedChannelIsNotLinkable) {
    const std::string all = std::to_string(guilds::kManageChannels | guilds::kViewChannel | guilds::kSendMessages);
    auto channels = guilds::ParseGuildChannels(
        json::array({
            {{"id", "1"},
             {"type", 0},
             {"position", 0},
             {"permissions", all},
             {"linked_lobby", {{"application_id", "5"}, {"lobby_id", "6"}}}},
            {{"id", "2"}, {"type", 0}, {"position", 1}, {"permissions", all}, {"linked_lobby", nullptr}},
            {{"id", "3"}, {"type", 0}, {"position", 2}, {"permissions", all}, {"linked_lobby", {{"lobby_id", 6}}}},
        }),
        1);
    ASSERT_EQ(channels.size(), 3u);
    EXPECT_EQ(channels[0].linkedLobby, (LinkedLobby{5, 6}));
    EXPECT_FALSE(channels[0].isLinkable);
    EXPECT_FALSE(channels[1].linkedLobby.has_value());
    EXPECT_TRUE(channels[1].isLinkable);
    EXPECT_FALSE(channels[2].linkedLobby.has_value());  // a lobby id that is not a snowflake string
}
