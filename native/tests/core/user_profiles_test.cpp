// Application profiles in the user cache: parsed from READY's `application_profiles`, kept across user updates
// that do not carry them, and read live through UserApplicationProfileHandle.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "users/user_handle.hpp"

using namespace svcpp::core;
using nlohmann::json;

namespace {
json ReadyUser() {
    return json::parse(R"({"id":"7","username":"ada","application_profiles":[
        {"provider_type":"OIDC","provider_id":"https://id.example","provider_issued_user_id":"sub-1","username":"Ada",
         "avatar_hash":null,"metadata":null},
        {"provider_type":"DISCORD_BOT_ISSUED_ACCESS_TOKEN","provider_id":null,
         "provider_issued_user_id":"ext-1","username":"Ada"},
        {"provider_type":"EPIC_ONLINE_SERVICES_ID_TOKEN","provider_issued_user_id":"e"},
        {"provider_type":"APPLE_ID_TOKEN","provider_issued_user_id":"a"}]})");
}
}  // namespace

TEST(UserProfiles, ParsedFromTheReadyUser) {
    auto cache = std::make_shared<UserCache>("https://cdn");
    cache->Upsert(ParseUser(ReadyUser()));
    auto profiles = UserHandle(cache, 7).UserApplicationProfiles();
    ASSERT_EQ(profiles.size(), 4u);
    EXPECT_EQ(profiles[0].ProviderType(), ExternalIdentityProviderType::OIDC);
    EXPECT_EQ(profiles[0].ProviderId(), "https://id.example");
    EXPECT_EQ(profiles[0].ProviderIssuedUserId(), "sub-1");
    EXPECT_EQ(profiles[0].Username(), "Ada");
    EXPECT_EQ(profiles[0].AvatarHash(), "");
    EXPECT_EQ(profiles[1].ProviderType(), ExternalIdentityProviderType::PlatformBot);
    EXPECT_FALSE(profiles[1].ProviderId().has_value());
    EXPECT_EQ(profiles[2].ProviderType(), ExternalIdentityProviderType::EpicOnlineServices);
    EXPECT_EQ(profiles[3].ProviderType(), ExternalIdentityProviderType::Unknown);
}

TEST(UserProfiles, KeptByUpdatesWithoutThemAndLiveThroughTheHandle) {
    auto cache = std::make_shared<UserCache>("https://cdn");
    cache->Upsert(ParseUser(ReadyUser()));
    auto profile = UserHandle(cache, 7).UserApplicationProfiles().at(1);

    cache->Upsert(ParseUser(json::parse(R"({"id":"7","username":"ada2","global_name":"Ada Two"})")));  // USER_UPDATE
    EXPECT_EQ(UserHandle(cache, 7).UserApplicationProfiles().size(), 4u);
    EXPECT_TRUE(profile.IsValid());

    cache->Upsert(ParseUser(json::parse(R"({"id":"7","username":"ada2","application_profiles":[
        {"provider_type":"DISCORD_BOT_ISSUED_ACCESS_TOKEN","provider_issued_user_id":"ext-1",
         "username":"Renamed"}]})")));
    EXPECT_EQ(profile.Username(), "Renamed");  // the same identity, read again

    cache->Upsert(ParseUser(json::parse(R"({"id":"7","username":"ada2","application_profiles":[]})")));
    EXPECT_FALSE(profile.IsValid());
    EXPECT_EQ(profile.Username(), "");
    EXPECT_EQ(profile.ProviderType(), ExternalIdentityProviderType::Unknown);

    cache.reset();
    EXPECT_FALSE(profile.IsValid());  // the client (its cache) is gone
}
