// The message cache: 25 most recent per channel, handles readable after eviction and deletion, edits
// visible through existing handles; MESSAGE_* / LOBBY_MESSAGE_* dispatches and their events; content rendering.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "messages/content_render.hpp"
#include "messages/message_dispatch.hpp"
#include "messages/message_handle.hpp"

using namespace svcpp::core;
using messages::MessageEvent;
using Kind = MessageEvent::Kind;
using nlohmann::json;

namespace {

constexpr uint64_t kSelf = 1;
constexpr uint64_t kOther = 2;

json User(uint64_t id, const std::string &name) { return {{"id", std::to_string(id)}, {"username", name}}; }

json Dm(uint64_t id, const std::string &content, uint64_t channel = 900, int channelType = 1) {
    return {{"id", std::to_string(id)},
            {"type", 0},
            {"content", content},
            {"channel_id", std::to_string(channel)},
            {"channel_type", channelType},
            {"author", User(kOther, "bob")},
            {"recipient_id", std::to_string(kSelf)},
            {"timestamp", "2024-05-01T10:00:00.250Z"},
            {"edited_timestamp", nullptr},
            {"metadata", {{"k", "v"}}},
            {"moderation_metadata", json::object()},
            {"application_id", "99"},
            {"sent_from_game", true},
            {"flags", 0}};
}

json LobbyMessage(uint64_t id, uint64_t lobby) {
    return {{"id", std::to_string(id)},
            {"type", 0},
            {"content", "hi"},
            {"lobby_id", std::to_string(lobby)},
            {"channel_id", std::to_string(lobby)},
            {"author", User(kOther, "bob")},
            {"lobby_member", {{"additional_name", "Bobby"}}},
            {"metadata", json::object()},
            {"moderation_metadata", {{"flagged", "no"}}},
            {"timestamp", "2024-05-01T10:00:00Z"},
            {"flags", 0},
            {"application_id", "99"}};
}

struct MessageCacheTest : ::testing::Test {
    std::shared_ptr<UserCache> users = std::make_shared<UserCache>("https://cdn");
    std::shared_ptr<LobbyCache> lobbies = std::make_shared<LobbyCache>();
    std::shared_ptr<MessageCache> messages = std::make_shared<MessageCache>();
    CacheRefs Refs() const { return {users, lobbies, messages}; }

    std::vector<MessageEvent> Apply(const std::string &type, const json &data) {
        return messages::ApplyDispatch(*messages, *users, kSelf, type, data);
    }
    MessageHandle Handle(uint64_t id) { return MessageHandle(Refs(), messages->Find(id)); }
};

}  // namespace

TEST_F(MessageCacheTest, KeepsThe25NewestPerChannelAndHandlesOutliveEviction) {
    Apply("MESSAGE_CREATE", Dm(100, "first"));
    MessageHandle first = Handle(100);
    for (uint64_t id = 101; id < 125; ++id) Apply("MESSAGE_CREATE", Dm(id, "m"));
    EXPECT_TRUE(messages->Find(100));  // exactly 25 so far
    Apply("MESSAGE_CREATE", Dm(125, "m"));
    EXPECT_FALSE(messages->Find(100));  // the oldest went
    EXPECT_TRUE(messages->Find(101));
    EXPECT_TRUE(first.IsValid());  // …but its handle still reads it
    EXPECT_EQ(first.Id(), 100u);
    EXPECT_EQ(first.RawContent(), "first");

    // Another channel has its own 25.
    Apply("MESSAGE_CREATE", Dm(126, "elsewhere", 901));
    EXPECT_EQ(messages->Recent(900, 100).size(), 25u);
    EXPECT_EQ(messages->Recent(901, 100).size(), 1u);

    // A fetched message older than the cached 25 is evicted at once; its entry stays readable.
    auto old = messages::CacheMessage(*messages, *users, kSelf, Dm(50, "old"));
    ASSERT_TRUE(old);
    EXPECT_FALSE(messages->Find(50));
    EXPECT_EQ(MessageHandle(Refs(), old).RawContent(), "old");
}

TEST_F(MessageCacheTest, RecentIsNewestFirst) {
    Apply("MESSAGE_CREATE", Dm(102, "c"));
    Apply("MESSAGE_CREATE", Dm(100, "a"));
    Apply("MESSAGE_CREATE", Dm(101, "b"));
    auto recent = messages->Recent(900, 2);
    ASSERT_EQ(recent.size(), 2u);
    EXPECT_EQ(messages->Read(*recent[0]).id, 102u);
    EXPECT_EQ(messages->Read(*recent[1]).id, 101u);
}

TEST_F(MessageCacheTest, DirectMessageFieldsAndItsChannel) {
    EXPECT_EQ(Apply("MESSAGE_CREATE", Dm(100, "hello <@2>")), (std::vector<MessageEvent>{{Kind::Created, 100}}));
    MessageHandle m = Handle(100);
    EXPECT_EQ(m.AuthorId(), kOther);
    ASSERT_TRUE(m.Author());
    EXPECT_EQ(m.Author()->Username(), "bob");  // the author went into the user cache
    EXPECT_EQ(m.RecipientId(), kSelf);
    EXPECT_EQ(m.ChannelId(), 900u);
    EXPECT_EQ(m.SentTimestamp(), 1714557600250u);
    EXPECT_EQ(m.EditedTimestamp(), 0u);
    EXPECT_EQ(m.Metadata(), (Properties{{"k", "v"}}));
    EXPECT_EQ(m.ApplicationId(), 99u);
    EXPECT_TRUE(m.SentFromGame());
    EXPECT_EQ(m.Content(), "hello @bob");
    EXPECT_EQ(m.RawContent(), "hello <@2>");
    EXPECT_FALSE(m.Lobby().has_value());
    EXPECT_FALSE(m.AdditionalName().has_value());
    ASSERT_TRUE(m.Channel());
    EXPECT_EQ(m.Channel()->Type(), ChannelType::Dm);
    EXPECT_EQ(m.Channel()->Recipients(), (std::vector<uint64_t>{kOther}));
    EXPECT_EQ(messages->DmChannelWith(kOther), 900u);
}

TEST_F(MessageCacheTest, EphemeralDirectMessagesHaveNoChannel) {
    Apply("MESSAGE_CREATE", Dm(100, "hi", kOther, 18));
    EXPECT_FALSE(Handle(100).Channel().has_value());
    EXPECT_EQ(messages->DmChannelWith(kOther), kOther);  // the channel id of an ephemeral DM is the other user's id
}

TEST_F(MessageCacheTest, EditsReachExistingHandlesAndDeletesKeepTheLastState) {
    Apply("MESSAGE_CREATE", Dm(100, "before"));
    MessageHandle m = Handle(100);
    json edited = Dm(100, "after");
    edited["edited_timestamp"] = "2024-05-01T10:00:01.000+00:00";
    EXPECT_EQ(Apply("MESSAGE_UPDATE", edited), (std::vector<MessageEvent>{{Kind::Updated, 100}}));
    EXPECT_EQ(m.RawContent(), "after");
    EXPECT_EQ(m.EditedTimestamp(), 1714557601000u);

    EXPECT_EQ(Apply("MESSAGE_DELETE", {{"id", "100"}, {"channel_id", "900"}}),
              (std::vector<MessageEvent>{{Kind::Deleted, 100, 900}}));
    EXPECT_FALSE(messages->Find(100));
    EXPECT_EQ(m.RawContent(), "after");
}

TEST_F(MessageCacheTest, LobbyMessages) {
    lobbies->Put(LobbyRecord{55, 99, {}, {LobbyMemberRecord{kSelf}}, std::nullopt});
    EXPECT_EQ(Apply("LOBBY_MESSAGE_CREATE", LobbyMessage(200, 55)), (std::vector<MessageEvent>{{Kind::Created, 200}}));
    MessageHandle m = Handle(200);
    EXPECT_EQ(m.ChannelId(), 55u);
    EXPECT_EQ(m.RecipientId(), 55u);
    EXPECT_FALSE(m.Recipient().has_value());
    EXPECT_EQ(m.AdditionalName(), "Bobby");
    EXPECT_EQ(m.ModerationMetadata(), (Properties{{"flagged", "no"}}));
    EXPECT_TRUE(m.SentFromGame());  // a user's lobby message can only come from the SDK
    ASSERT_TRUE(m.Lobby());
    EXPECT_EQ(m.Lobby()->Id(), 55u);
    ASSERT_TRUE(m.Channel());
    EXPECT_EQ(m.Channel()->Type(), ChannelType::Lobby);
    EXPECT_EQ(Apply("LOBBY_MESSAGE_DELETE", {{"id", "200"}, {"lobby_id", "55"}}),
              (std::vector<MessageEvent>{{Kind::Deleted, 200, 55}}));
}

TEST_F(MessageCacheTest, MalformedMessagesAreIgnored) {
    EXPECT_TRUE(Apply("MESSAGE_CREATE", {{"id", 5}}).empty());
    EXPECT_TRUE(Apply("MESSAGE_CREATE", json::array()).empty());
    EXPECT_TRUE(Apply("MESSAGE_DELETE", {{"channel_id", "900"}}).empty());
    EXPECT_TRUE(messages->Recent(900, 25).empty());
}

TEST_F(MessageCacheTest, HandlesReadDefaultsOnceTheClientIsGone) {
    Apply("MESSAGE_CREATE", Dm(100, "x"));
    MessageHandle m = Handle(100);
    messages.reset();
    EXPECT_FALSE(m.IsValid());
    EXPECT_EQ(m.Id(), 0u);
    EXPECT_EQ(m.Content(), "");
}

TEST(ContentRender, MentionsAndEmojiBecomeReadable) {
    auto names = [](uint64_t id) -> std::optional<std::string> {
        if (id == 7) return std::string("ada");
        return std::nullopt;
    };
    EXPECT_EQ(messages::RenderContent("hi <@7> and <@!7>", names), "hi @ada and @ada");
    EXPECT_EQ(messages::RenderContent("<@8>", names), "@unknown-user");
    EXPECT_EQ(messages::RenderContent("gg <:pog:123> <a:dance:456>", names), "gg :pog: :dance:");
    EXPECT_EQ(messages::RenderContent("a < b > c <@x> <:e:> <3 <", names), "a < b > c <@x> <:e:> <3 <");
}
