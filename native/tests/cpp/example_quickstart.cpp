// The recommended way to use the C++ wrapper, as a test: a shared client captured weakly by its
// callbacks, logging first, the application id, a PKCE pair and AuthorizationArgs for Authorize, and a
// frame loop that pumps callbacks once per frame.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "svcpp.hpp"

TEST(Example, Quickstart) {
    ASSERT_TRUE(svcpp::CheckAbiVersion()) << "libsvcpp is older than svcpp.hpp";

    // 1. One client for the game, shared; callbacks hold it weakly so they never keep it alive.
    auto client = std::make_shared<svcpp::Client>();
    std::weak_ptr<svcpp::Client> weakClient = client;

    // 2. Logging first, so nothing the SDK says during setup is missed.
    std::vector<std::string> log;
    client->AddLogCallback(
        [&log](std::string message, svcpp::LoggingSeverity severity) {
            log.push_back(std::string(svcpp::EnumToString(severity)) + ": " + message);
        },
        svcpp::LoggingSeverity::Info);

    // 3. React to connection status changes (Connect() arrives with the token flow).
    client->SetStatusChangedCallback([weakClient](svcpp::Client::Status status, svcpp::Client::Error error, int32_t) {
        if (auto c = weakClient.lock()) {
            if (status == svcpp::Client::Status::Disconnected && error != svcpp::Client::Error::None) {
                // a real game would schedule a reconnect here
            }
        }
    });

    // 4. Identify the application; AuthorizationArgs::ClientId defaults to it.
    client->SetApplicationId(1349146942634065960ull);

    // 5. Prepare the OAuth2 authorization with PKCE.
    svcpp::AuthorizationCodeVerifier verifier = client->CreateAuthorizationCodeVerifier();
    svcpp::AuthorizationArgs args;
    args.SetScopes(svcpp::Client::GetDefaultPresenceScopes());
    args.SetCodeChallenge(verifier.Challenge());
    EXPECT_EQ(args.ClientId(), 0u);  // 0 = use the application id
    EXPECT_EQ(args.CodeChallenge()->Challenge(), verifier.Challenge().Challenge());
    EXPECT_EQ(args.Scopes(), "openid sdk.social_layer_presence");

    // 6. The frame loop: pump once per frame; callbacks run here, on the game thread.
    for (int frame = 0; frame < 3; ++frame) svcpp::RunCallbacks();
    EXPECT_FALSE(client->HasPendingCallbacks());
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log.front(), "Info: application id set to 1349146942634065960");

    // 7. Shutdown: releasing the last reference drops the client and every registration it holds.
    client.reset();
    EXPECT_TRUE(weakClient.expired());
}
