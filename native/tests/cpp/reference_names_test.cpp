// C++ wrapper: the reference SDK's names (deprecated aliases generated from the IDL's referenceRenames) have
// exactly the signatures of ours and forward to them. The file uses them on purpose, so their deprecation
// warnings are off here (header.svcpp_hpp.reference_names_warn checks that they do warn).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>
#include <type_traits>

#include "svcpp.hpp"

using namespace svcpp;

// One of each kind: a Client method with a callback, a const Client method, a handle getter, enum values.
static_assert(
    std::is_same_v<decltype(&Client::SendDiscordFriendRequest), decltype(&Client::SendPlatformFriendRequest)>);
static_assert(
    std::is_same_v<decltype(&Client::RemoveDiscordAndGameFriend), decltype(&Client::RemovePlatformAndGameFriend)>);
static_assert(std::is_same_v<decltype(&Client::CanOpenMessageInDiscord), decltype(&Client::CanOpenMessageInPlatform)>);
static_assert(std::is_same_v<decltype(&RelationshipHandle::DiscordRelationshipType),
                             decltype(&RelationshipHandle::PlatformRelationshipType)>);
static_assert(ExternalIdentityProviderType::DiscordBot == ExternalIdentityProviderType::PlatformBot);
static_assert(AuthenticationExternalAuthType::DiscordBotIssuedAccessToken ==
              AuthenticationExternalAuthType::PlatformBotIssuedAccessToken);
static_assert(DisclosureTypes::MessageDataVisibleOnDiscord == DisclosureTypes::MessageDataVisibleOnPlatform);

namespace {

// Calls `send` with a callback and pumps the client until it completes (or 5 s pass).
template <class Send>
std::optional<ClientResult> Complete(Client &client, Send send) {
    std::optional<ClientResult> result;
    send([&result](ClientResult r) { result = std::move(r); });
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!result && std::chrono::steady_clock::now() < deadline) {
        client.RunCallbacks();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return result;
}

}  // namespace

TEST(ReferenceNames, AMethodAliasCompletesLikeOurs) {
    Client client;
    auto ours = Complete(client, [&](auto cb) { client.SendPlatformFriendRequestById(42, cb); });
    auto alias = Complete(client, [&](auto cb) { client.SendDiscordFriendRequestById(42, cb); });
    ASSERT_TRUE(ours && alias);
    EXPECT_EQ(alias->Type(), ErrorType::ClientNotReady);  // not connected: the platform-axis call refuses
    EXPECT_EQ(alias->Type(), ours->Type());
    EXPECT_EQ(alias->Error(), ours->Error());
    EXPECT_EQ(client.CanOpenMessageInDiscord(1), client.CanOpenMessageInPlatform(1));
}

TEST(ReferenceNames, EnumAliasesNameOurValues) {
    EXPECT_STREQ(EnumToString(ExternalIdentityProviderType::DiscordBot), "PlatformBot");
    EXPECT_STREQ(EnumToString(DisclosureTypes::MessageDataVisibleOnDiscord), "MessageDataVisibleOnPlatform");
}
