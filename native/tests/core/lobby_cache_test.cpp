// The lobby cache driven by READY and LOBBY_* dispatch sequences (lobbies/lobby_dispatch): which events each
// step reports, member events never for the signed-in user, users of members cached, handles live.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>
#include <nlohmann/json.hpp>

#include "lobbies/lobby_dispatch.hpp"
#include "lobbies/lobby_handle.hpp"
#include "voice/lobby_call_reader.hpp"

using namespace svcpp::core;
using lobbies::LobbyEvent;
using Kind = LobbyEvent::Kind;
using nlohmann::json;

namespace {

constexpr uint64_t kSelf = 1;

json Member(uint64_t id, bool connected = true, json metadata = json::object(), int flags = 0) {
    return {{"id", std::to_string(id)},
            {"metadata", metadata},
            {"flags", flags},
            {"connected", connected},
            {"user", {{"id", std::to_string(id)}, {"username", "user" + std::to_string(id)}}}};
}

json Lobby(uint64_t id, json members, json metadata = json::object()) {
    return {{"id", std::to_string(id)}, {"application_id", "99"},    {"metadata", metadata},
            {"members", members},       {"linked_channel", nullptr}, {"flags", 0}};
}

struct LobbyCacheTest : ::testing::Test {
    std::shared_ptr<LobbyCache> lobbies = std::make_shared<LobbyCache>();
    std::shared_ptr<UserCache> users = std::make_shared<UserCache>("https://cdn");

    std::vector<LobbyEvent> Apply(const std::string &type, const json &data) {
        return lobbies::ApplyDispatch(*lobbies, *users, kSelf, type, data);
    }
};

}  // namespace

TEST_F(LobbyCacheTest, ReadyFillsTheCacheAndAnnouncesEveryLobby) {
    auto events = lobbies::ApplyReady(*lobbies, *users,
                                      json::array({Lobby(10, {Member(kSelf), Member(2, false)}, {{"mode", "duel"}})}));
    EXPECT_EQ(events, (std::vector<LobbyEvent>{{Kind::Created, 10}}));
    LobbyHandle lobby(lobbies, users, {}, 10);
    ASSERT_TRUE(lobby.IsValid());
    EXPECT_EQ(lobby.LobbyMemberIds(), (std::vector<uint64_t>{kSelf, 2}));
    EXPECT_EQ(lobby.Metadata(), (Properties{{"mode", "duel"}}));
    auto member = lobby.GetLobbyMemberHandle(2);
    ASSERT_TRUE(member);
    EXPECT_FALSE(member->Connected());
    ASSERT_TRUE(member->User());
    EXPECT_EQ(member->User()->Username(), "user2");  // members' users went into the user cache
    EXPECT_FALSE(lobby.GetLobbyMemberHandle(3).has_value());
}

TEST_F(LobbyCacheTest, ASecondReadyReportsLobbiesLostMeanwhileAsDeleted) {
    lobbies::ApplyReady(*lobbies, *users, json::array({Lobby(10, {Member(kSelf)}), Lobby(11, {Member(kSelf)})}));
    auto events = lobbies::ApplyReady(*lobbies, *users, json::array({Lobby(11, {Member(kSelf)})}));
    EXPECT_EQ(events, (std::vector<LobbyEvent>{{Kind::Deleted, 10}, {Kind::Created, 11}}));
    EXPECT_EQ(lobbies->Ids(), (std::vector<uint64_t>{11}));
}

TEST_F(LobbyCacheTest, MemberEventsAreReportedForOthersOnly) {
    Apply("LOBBY_CREATE", Lobby(10, {Member(kSelf)}));
    EXPECT_EQ(Apply("LOBBY_MEMBER_ADD", {{"lobby_id", "10"}, {"member", Member(2)}}),
              (std::vector<LobbyEvent>{{Kind::MemberAdded, 10, 2}}));
    EXPECT_EQ(Apply("LOBBY_MEMBER_UPDATE", {{"lobby_id", "10"}, {"member", Member(2, false, {{"k", "v"}}, 1)}}),
              (std::vector<LobbyEvent>{{Kind::MemberUpdated, 10, 2}}));
    auto member = LobbyHandle(lobbies, users, {}, 10).GetLobbyMemberHandle(2);
    ASSERT_TRUE(member);
    EXPECT_FALSE(member->Connected());
    EXPECT_TRUE(member->CanLinkLobby());
    EXPECT_EQ(member->Metadata(), (Properties{{"k", "v"}}));

    // The signed-in user's own member changes update the cache silently.
    EXPECT_TRUE(
        Apply("LOBBY_MEMBER_UPDATE", {{"lobby_id", "10"}, {"member", Member(kSelf, true, {{"me", "1"}})}}).empty());
    EXPECT_EQ(lobbies->GetMember(10, kSelf)->metadata, (Properties{{"me", "1"}}));

    EXPECT_EQ(Apply("LOBBY_MEMBER_REMOVE", {{"lobby_id", "10"}, {"member", {{"id", "2"}}}}),
              (std::vector<LobbyEvent>{{Kind::MemberRemoved, 10, 2}}));
    EXPECT_FALSE(member->IsValid());  // the handle names a member that is gone
    EXPECT_EQ(member->Id(), 0u);
    EXPECT_TRUE(Apply("LOBBY_MEMBER_REMOVE", {{"lobby_id", "10"}, {"member", {{"id", "2"}}}}).empty());  // already gone
}

TEST_F(LobbyCacheTest, UpdateAndDeleteOfTheLobby) {
    Apply("LOBBY_CREATE", Lobby(10, {Member(kSelf)}));
    LobbyHandle lobby(lobbies, users, {}, 10);
    json linked = Lobby(10, {Member(kSelf)}, {{"a", "b"}});
    linked["linked_channel"] = {{"id", "500"}, {"name", "general"}, {"guild_id", "400"}};
    EXPECT_EQ(Apply("LOBBY_UPDATE", linked), (std::vector<LobbyEvent>{{Kind::Updated, 10}}));
    ASSERT_TRUE(lobby.LinkedChannel());
    EXPECT_EQ(*lobby.LinkedChannel(), (LinkedChannel{500, "general", 400}));
    EXPECT_EQ(lobby.Metadata(), (Properties{{"a", "b"}}));

    EXPECT_EQ(Apply("LOBBY_DELETE", {{"id", "10"}}), (std::vector<LobbyEvent>{{Kind::Deleted, 10}}));
    EXPECT_FALSE(lobby.IsValid());
    EXPECT_TRUE(lobby.LobbyMembers().empty());
    EXPECT_TRUE(Apply("LOBBY_DELETE", {{"id", "10"}}).empty());  // unknown lobby: nothing to report
}

TEST_F(LobbyCacheTest, AnUpdateOfAnUnknownLobbyMakesItAvailable) {
    EXPECT_EQ(Apply("LOBBY_UPDATE", Lobby(12, {Member(kSelf)})), (std::vector<LobbyEvent>{{Kind::Created, 12}}));
}

TEST_F(LobbyCacheTest, TheUsersOwnRemovalDeletesTheLobbyForThem) {
    Apply("LOBBY_CREATE", Lobby(10, {Member(kSelf), Member(2)}));
    EXPECT_EQ(Apply("LOBBY_MEMBER_REMOVE", {{"lobby_id", "10"}, {"member", {{"id", std::to_string(kSelf)}}}}),
              (std::vector<LobbyEvent>{{Kind::Deleted, 10}}));
    EXPECT_FALSE(lobbies->Contains(10));
}

TEST_F(LobbyCacheTest, MalformedDispatchesChangeNothing) {
    Apply("LOBBY_CREATE", Lobby(10, {Member(kSelf)}));
    EXPECT_TRUE(Apply("LOBBY_CREATE", {{"id", 10}}).empty());  // id not a snowflake string
    EXPECT_TRUE(Apply("LOBBY_MEMBER_ADD", {{"lobby_id", "77"}, {"member", Member(2)}}).empty());  // lobby not cached
    EXPECT_TRUE(Apply("LOBBY_MEMBER_ADD", {{"lobby_id", "10"}, {"member", "x"}}).empty());
    EXPECT_TRUE(Apply("LOBBY_DELETE", json::array()).empty());
    EXPECT_EQ(lobbies->Ids(), (std::vector<uint64_t>{10}));
    EXPECT_EQ(lobbies->Get(10)->members.size(), 1u);
}

TEST_F(LobbyCacheTest, HandlesReadDefaultsOnceTheClientIsGone) {
    Apply("LOBBY_CREATE", Lobby(10, {Member(kSelf)}, {{"a", "b"}}));
    LobbyHandle lobby(lobbies, users, {}, 10);
    auto member = lobby.LobbyMembers().at(0);
    lobbies.reset();
    EXPECT_FALSE(lobby.IsValid());
    EXPECT_EQ(lobby.Id(), 0u);
    EXPECT_TRUE(lobby.Metadata().empty());
    EXPECT_FALSE(member.IsValid());
    EXPECT_FALSE(member.User().has_value());
}

TEST_F(LobbyCacheTest, ReadVisitsTheCachedLobbyInPlace) {
    Apply("LOBBY_CREATE", Lobby(10, {Member(kSelf), Member(2), Member(3)}));
    const auto count = [](const LobbyRecord &lobby) { return lobby.members.size(); };
    EXPECT_EQ(lobbies->Read(10, count), std::optional<size_t>(3));
    EXPECT_EQ(lobbies->Read(11, count), std::nullopt);  // not cached: the reader never runs
    LobbyHandle lobby(lobbies, users, {}, 10);
    EXPECT_FALSE(lobby.LinkedChannel().has_value());
    Apply("LOBBY_DELETE", {{"id", "10"}});
    EXPECT_EQ(lobbies->Read(10, count), std::nullopt);
    EXPECT_TRUE(lobby.LobbyMemberIds().empty());
    EXPECT_FALSE(lobby.LinkedChannel().has_value());
}

namespace {

/** Who is in each lobby's call, as a test sets it (the voice area's role). */
struct FakeLobbyCalls : voice::LobbyCallReader {
    std::map<uint64_t, std::vector<voice::VoiceStateRecord>> calls;
    std::optional<std::vector<voice::VoiceStateRecord>> LobbyCall(uint64_t lobbyId) const override {
        auto it = calls.find(lobbyId);
        if (it == calls.end() || it->second.empty()) return std::nullopt;
        return it->second;
    }
};

}  // namespace

TEST_F(LobbyCacheTest, CallInfoHandleIsAbsentWithoutParticipantsAndLiveWhileTheCallHasSome) {
    lobbies::ApplyReady(*lobbies, *users, json::array({Lobby(10, {Member(kSelf), Member(2)})}));
    auto calls = std::make_shared<FakeLobbyCalls>();
    LobbyHandle lobby(lobbies, users, calls, 10);
    EXPECT_FALSE(lobby.GetCallInfoHandle().has_value());

    calls->calls[10] = {voice::VoiceStateRecord{.userId = 2, .channelId = 10, .lobbyId = 10, .selfMute = true}};
    auto info = lobby.GetCallInfoHandle();
    ASSERT_TRUE(info.has_value());
    EXPECT_TRUE(info->IsValid());
    EXPECT_EQ(info->ChannelId(), 10u);
    EXPECT_EQ(info->GuildId(), 0u);
    EXPECT_EQ(info->GetParticipants(), (std::vector<uint64_t>{2}));
    auto state = info->GetVoiceStateHandle(2);
    ASSERT_TRUE(state.has_value());
    EXPECT_TRUE(state->SelfMute());
    EXPECT_FALSE(state->SelfDeaf());
    EXPECT_FALSE(info->GetVoiceStateHandle(kSelf).has_value());

    // Live: a change shows through the handles taken before it.
    calls->calls[10][0].selfMute = false;
    calls->calls[10].push_back(voice::VoiceStateRecord{.userId = kSelf, .channelId = 10, .lobbyId = 10});
    EXPECT_FALSE(state->SelfMute());
    EXPECT_EQ(info->GetParticipants(), (std::vector<uint64_t>{2, kSelf}));

    // Everybody left: defaults, invalid.
    calls->calls[10].clear();
    EXPECT_FALSE(info->IsValid());
    EXPECT_EQ(info->ChannelId(), 0u);
    EXPECT_TRUE(info->GetParticipants().empty());
    EXPECT_FALSE(state->IsValid());
    EXPECT_FALSE(lobby.GetCallInfoHandle().has_value());

    // The voice area gone (client dropped): the same.
    calls->calls[10] = {voice::VoiceStateRecord{.userId = 2, .channelId = 10, .lobbyId = 10}};
    EXPECT_TRUE(info->IsValid());
    calls.reset();
    EXPECT_FALSE(info->IsValid());
    EXPECT_FALSE(lobby.GetCallInfoHandle().has_value());
}
