// C++ wrapper: Client lifecycle, statics, log callbacks (std::function with captured state and its
// release), the status slot, the wakeup hook, the per-client and global pumps, PKCE, span callbacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "svcpp.hpp"

using namespace svcpp;

static_assert(!std::is_copy_constructible_v<Client> && !std::is_copy_assignable_v<Client>, "Client is move-only");
static_assert(std::is_nothrow_move_constructible_v<Client> && std::is_nothrow_move_assignable_v<Client>);
static_assert(
    std::is_same_v<decltype(&Client::AddLogCallback), uint64_t (Client::*)(Client::LogCallback, LoggingSeverity)>,
    "reference parameter order: callback first, then the minimum severity");

namespace {

// Keeps the lines the core documents (SEMANTICS.md) and ignores others the core may log.
struct Lines {
    std::vector<std::string> text;
    std::vector<LoggingSeverity> severity;
    void operator()(std::string const &message, LoggingSeverity s) {
        if (message.rfind("application id set to ", 0) == 0 || message.rfind("HTTP request timeout set to ", 0) == 0) {
            text.push_back(message);
            severity.push_back(s);
        }
    }
};

}  // namespace

TEST(Client, ConstructorsAndDefaults) {
    Client a;
    EXPECT_TRUE(a);
    EXPECT_TRUE(a.IsValid());
    EXPECT_EQ(a.GetStatus(), Client::Status::Disconnected);
    EXPECT_EQ(a.GetApplicationId(), 0u);
    EXPECT_EQ(a.GetHttpRequestTimeout(), 30000);
    EXPECT_FALSE(a.HasPendingCallbacks());

    Client b("http://127.0.0.1:1/api/v10", "http://127.0.0.1:1");
    EXPECT_TRUE(b);
    ClientCreateOptions options;
    options.SetApiBase("http://127.0.0.1:1/api/v10");
    options.SetCpuAffinityMask(1u);
    Client c(options);
    EXPECT_TRUE(c);
    EXPECT_EQ(c.GetStatus(), Client::Status::Disconnected);
}

TEST(Client, MoveKeepsTheClientAndDestructorDrops) {
    Client a;
    a.SetApplicationId(42);
    Svcpp_Client raw = *a.instance();
    Client b = std::move(a);
    EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(b.GetApplicationId(), 42u);
    EXPECT_TRUE(Svcpp_Client_IsValid(&raw));
    {
        Client c = std::move(b);
        EXPECT_EQ(c.GetApplicationId(), 42u);
    }
    EXPECT_FALSE(Svcpp_Client_IsValid(&raw));  // the destructor dropped it

    Client d;
    Svcpp_Client first = *d.instance();
    d = Client();  // move-assign drops the previous client
    EXPECT_FALSE(Svcpp_Client_IsValid(&first));
    EXPECT_TRUE(d);
    d.Drop();
    EXPECT_FALSE(d);
}

TEST(Client, Statics) {
    EXPECT_EQ(Client::GetDefaultCommunicationScopes(), "openid sdk.social_layer");
    EXPECT_EQ(Client::GetDefaultPresenceScopes(), "openid sdk.social_layer_presence");
    EXPECT_EQ(Client::GetVersionMajor(), SVCPP_VERSION_MAJOR);
    EXPECT_EQ(Client::GetVersionMinor(), SVCPP_VERSION_MINOR);
    EXPECT_EQ(Client::GetVersionPatch(), SVCPP_VERSION_PATCH);
    (void)Client::GetVersionHash();
    EXPECT_EQ(GetAbiVersion(), static_cast<uint32_t>(SVCPP_ABI_VERSION));
    EXPECT_TRUE(CheckAbiVersion());
}

TEST(Client, LogCallbackWithCapturedState) {
    Client client;
    auto lines = std::make_shared<Lines>();
    uint64_t token = client.AddLogCallback([lines](std::string message, LoggingSeverity s) { (*lines)(message, s); },
                                           LoggingSeverity::Info);
    EXPECT_GE(token, 1u);
    client.SetApplicationId(7);
    client.SetHttpRequestTimeout(1200);
    EXPECT_TRUE(lines->text.empty());  // delivered by the pump only
    EXPECT_TRUE(client.HasPendingCallbacks());
    EXPECT_TRUE(client.RunCallbacks());
    ASSERT_EQ(lines->text.size(), 2u);
    EXPECT_EQ(lines->text[0], "application id set to 7");
    EXPECT_EQ(lines->text[1], "HTTP request timeout set to 1200 ms");
    EXPECT_EQ(lines->severity[0], LoggingSeverity::Info);

    // a registration above Info does not see Info lines
    auto quiet = std::make_shared<Lines>();
    client.AddLogCallback([quiet](std::string message, LoggingSeverity s) { (*quiet)(message, s); },
                          LoggingSeverity::Error);
    client.SetApplicationId(8);
    client.RunCallbacks();
    EXPECT_TRUE(quiet->text.empty());
    EXPECT_EQ(lines->text.size(), 3u);
}

TEST(Client, CapturedStateIsReleasedWhenTheRegistrationEnds) {
    auto state = std::make_shared<int>(0);
    std::weak_ptr<int> removed = state, dropped, replaced, cleared;
    {
        Client client;
        uint64_t token =
            client.AddLogCallback([state](std::string, LoggingSeverity) { ++*state; }, LoggingSeverity::Info);
        state.reset();
        EXPECT_FALSE(removed.expired());  // held by the registration
        client.SetApplicationId(1);
        client.RunCallbacks();
        EXPECT_GE(*removed.lock(), 1);
        client.RemoveCallback(token);
        EXPECT_TRUE(removed.expired());

        auto s2 = std::make_shared<int>(0);
        dropped = s2;
        client.AddLogCallback([s2](std::string, LoggingSeverity) {}, LoggingSeverity::Verbose);
        auto s3 = std::make_shared<int>(0);
        replaced = s3;
        client.SetStatusChangedCallback([s3](Client::Status, Client::Error, int32_t) {});
        s3.reset();
        EXPECT_FALSE(replaced.expired());
        auto s4 = std::make_shared<int>(0);
        cleared = s4;
        client.SetStatusChangedCallback([s4](Client::Status, Client::Error, int32_t) {});
        s4.reset();
        EXPECT_TRUE(replaced.expired());  // slot replaced
        EXPECT_FALSE(cleared.expired());
        client.SetStatusChangedCallback(nullptr);
        EXPECT_TRUE(cleared.expired());  // slot cleared
        s2.reset();
        client.SetApplicationId(2);  // pending at destruction
        EXPECT_FALSE(dropped.expired());
    }
    EXPECT_TRUE(dropped.expired());  // ~Client dropped it
}

TEST(Client, ThrowingCallbackDoesNotCrossTheAbi) {
    Client client;
    int after = 0;
    client.AddLogCallback([](std::string, LoggingSeverity) { throw std::runtime_error("boom"); },
                          LoggingSeverity::Info);
    client.AddLogCallback([&after](std::string, LoggingSeverity) { ++after; }, LoggingSeverity::Info);
    client.SetApplicationId(3);
    testing::internal::CaptureStderr();
    EXPECT_TRUE(client.RunCallbacks());
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("boom"), std::string::npos) << err;
    EXPECT_GE(after, 1);
}

TEST(Client, PumpReentryReportsBusy) {
    Client client;
    bool nested = true;
    client.AddLogCallback([&](std::string, LoggingSeverity) { nested = client.RunCallbacks(); }, LoggingSeverity::Info);
    client.SetApplicationId(4);
    EXPECT_TRUE(client.RunCallbacks());
    EXPECT_FALSE(nested);
}

TEST(Client, WakeupHook) {
    Client client;
    int wakeups = 0;
    auto token = std::make_shared<int>(0);
    std::weak_ptr<int> hookState = token;
    client.SetCallbacksPendingHook([&wakeups, token] { ++wakeups; });
    token.reset();
    client.AddLogCallback([](std::string, LoggingSeverity) {}, LoggingSeverity::Info);
    client.SetApplicationId(1);
    client.SetApplicationId(2);
    EXPECT_EQ(wakeups, 1);  // edge-triggered, coalesced until the next pump
    client.RunCallbacks();
    client.SetApplicationId(3);
    EXPECT_EQ(wakeups, 2);
    client.SetCallbacksPendingHook(nullptr);
    EXPECT_TRUE(hookState.expired());
    client.SetApplicationId(4);
    EXPECT_EQ(wakeups, 2);
}

TEST(Client, GlobalPumpAndGlobalHook) {
    int wakeups = 0;
    SetCallbacksPendingHook([&wakeups] { ++wakeups; });
    Client a, b;
    std::vector<std::string> seenA, seenB;
    a.AddLogCallback([&](std::string m, LoggingSeverity) { seenA.push_back(m); }, LoggingSeverity::Info);
    b.AddLogCallback([&](std::string m, LoggingSeverity) { seenB.push_back(m); }, LoggingSeverity::Info);
    a.SetApplicationId(10);
    b.SetApplicationId(20);
    EXPECT_EQ(wakeups, 2);
    EXPECT_TRUE(svcpp::RunCallbacks());
    EXPECT_FALSE(a.HasPendingCallbacks());
    EXPECT_FALSE(b.HasPendingCallbacks());
    EXPECT_FALSE(seenA.empty());
    EXPECT_FALSE(seenB.empty());
    SetCallbacksPendingHook(nullptr);
}

TEST(Client, ResetCallbacksEndsEveryRegistration) {
    Client client;
    auto state = std::make_shared<int>(0);
    std::weak_ptr<int> watch = state;
    int calls = 0;
    client.AddLogCallback([state, &calls](std::string, LoggingSeverity) { ++calls; }, LoggingSeverity::Info);
    state.reset();
    client.SetApplicationId(1);
    ResetCallbacks();
    EXPECT_TRUE(watch.expired());
    client.RunCallbacks();
    EXPECT_EQ(calls, 0);
}

TEST(Client, Pkce) {
    Client client;
    AuthorizationCodeVerifier verifier = client.CreateAuthorizationCodeVerifier();
    ASSERT_TRUE(verifier);
    EXPECT_EQ(verifier.Verifier().size(), 43u);
    AuthorizationCodeChallenge challenge = verifier.Challenge();
    EXPECT_EQ(challenge.Method(), AuthenticationCodeChallengeMethod::S256);
    EXPECT_EQ(challenge.Challenge().size(), 43u);
    EXPECT_NE(challenge.Challenge(), verifier.Verifier());
    EXPECT_NE(client.CreateAuthorizationCodeVerifier().Verifier(), verifier.Verifier());
    AuthorizationCodeVerifier copy = verifier;
    EXPECT_EQ(copy.Verifier(), verifier.Verifier());
}

TEST(Client, GuildQueriesWithoutATokenAnswerValidationErrorAndNoGuilds) {
    Client client;
    int calls = 0;
    client.GetUserGuilds([&](ClientResult result, std::vector<GuildMinimal> guilds) {
        ++calls;
        EXPECT_EQ(result.Type(), ErrorType::ValidationError);
        EXPECT_TRUE(guilds.empty());
    });
    client.GetGuildChannels(5, [&](ClientResult result, std::vector<GuildChannel> channels) {
        ++calls;
        EXPECT_EQ(result.Type(), ErrorType::ValidationError);
        EXPECT_TRUE(channels.empty());
    });
    EXPECT_TRUE(client.RunCallbacks());
    EXPECT_EQ(calls, 2);
}
