// C++ wrapper: value types — construction, copy (deep, via Clone), move, nullobj, operator bool,
// field getters/setters with std::optional, sub-objects, adopting C handles, enum names.
#include <gtest/gtest.h>

#include <type_traits>

#include "svcpp.hpp"

using namespace svcpp;

static_assert(std::is_copy_constructible_v<AuthorizationArgs> && std::is_copy_assignable_v<AuthorizationArgs>);
static_assert(std::is_nothrow_move_constructible_v<AuthorizationArgs> &&
              std::is_nothrow_move_assignable_v<AuthorizationArgs>);
static_assert(!std::is_convertible_v<AuthorizationArgs, bool>, "operator bool is explicit");
static_assert(std::is_same_v<std::underlying_type_t<Client::Status>, int32_t>);
static_assert(std::is_same_v<decltype(AuthorizationArgs{}.State()), std::optional<std::string>>);
static_assert(std::is_same_v<decltype(AuthorizationArgs{}.CodeChallenge()), std::optional<AuthorizationCodeChallenge>>);

TEST(Values, DefaultConstructedHoldsDefaults) {
    AuthorizationArgs args;
    EXPECT_TRUE(args);
    EXPECT_TRUE(args.IsValid());
    EXPECT_EQ(args.ClientId(), 0u);
    EXPECT_EQ(args.Scopes(), "");
    EXPECT_FALSE(args.State());
    EXPECT_FALSE(args.Nonce());
    EXPECT_FALSE(args.CodeChallenge());
    EXPECT_FALSE(args.IntegrationType());
    EXPECT_FALSE(args.CustomSchemeParam());

    ClientCreateOptions options;
    EXPECT_EQ(options.ApiBase(), "");
    EXPECT_EQ(options.WebBase(), "");
    EXPECT_EQ(options.CaFile(), "");
    EXPECT_EQ(options.ExperimentalAudioSystem(), AudioSystem::Standard);
    EXPECT_FALSE(options.ExperimentalAndroidPreventCommsForBluetooth());
    EXPECT_EQ(options.CpuAffinityMask(), std::nullopt);

    ClientResult result;
    EXPECT_TRUE(result.Successful());
    EXPECT_EQ(result.Type(), ErrorType::None);
    EXPECT_EQ(result.Status(), HttpStatusCode::None);
}

TEST(Values, FieldsRoundTripIncludingOptionals) {
    AuthorizationArgs args;
    args.SetClientId(1234);
    args.SetScopes(Client::GetDefaultCommunicationScopes());
    args.SetState("csrf");
    args.SetNonce(std::string("n\xC3\xA9"));
    args.SetIntegrationType(IntegrationType::UserInstall);
    args.SetCustomSchemeParam("mygame");
    EXPECT_EQ(args.ClientId(), 1234u);
    EXPECT_EQ(args.Scopes(), "openid sdk.social_layer");
    EXPECT_EQ(args.State(), "csrf");
    EXPECT_EQ(args.Nonce(), "n\xC3\xA9");
    EXPECT_EQ(args.IntegrationType(), IntegrationType::UserInstall);
    EXPECT_EQ(args.CustomSchemeParam(), "mygame");

    // present-but-empty is not absent; nullopt clears
    args.SetState(std::string());
    ASSERT_TRUE(args.State().has_value());
    EXPECT_EQ(*args.State(), "");
    args.SetState(std::nullopt);
    EXPECT_FALSE(args.State().has_value());
    args.SetIntegrationType(IntegrationType::GuildInstall);
    EXPECT_EQ(args.IntegrationType(), IntegrationType::GuildInstall);
    args.SetIntegrationType(std::nullopt);
    EXPECT_EQ(args.IntegrationType(), std::nullopt);

    ClientCreateOptions options;
    options.SetCpuAffinityMask(0u);
    EXPECT_EQ(options.CpuAffinityMask(), 0u);
    options.SetCpuAffinityMask(0xF0u);
    EXPECT_EQ(options.CpuAffinityMask(), 0xF0u);
    options.SetCpuAffinityMask(std::nullopt);
    EXPECT_EQ(options.CpuAffinityMask(), std::nullopt);
    options.SetExperimentalAudioSystem(AudioSystem::Game);
    EXPECT_EQ(options.ExperimentalAudioSystem(), AudioSystem::Game);

    ClientResult result;
    result.SetType(ErrorType::HTTPError);
    result.SetStatus(HttpStatusCode::TooManyRequests);
    result.SetRetryAfter(1.5f);
    result.SetRetryable(true);
    result.SetError("slow down");
    EXPECT_FALSE(result.Successful());
    EXPECT_EQ(result.Status(), HttpStatusCode::TooManyRequests);
    EXPECT_FLOAT_EQ(result.RetryAfter(), 1.5f);
    EXPECT_NE(result.ToString().find("slow down"), std::string::npos);
}

TEST(Values, SubObjectsAreCopiedInAndOut) {
    AuthorizationCodeChallenge challenge;
    challenge.SetChallenge("first");
    AuthorizationArgs args;
    args.SetCodeChallenge(challenge);
    challenge.SetChallenge("changed after set");
    ASSERT_TRUE(args.CodeChallenge());
    EXPECT_EQ(args.CodeChallenge()->Challenge(), "first");
    EXPECT_EQ(args.CodeChallenge()->Method(), AuthenticationCodeChallengeMethod::S256);

    std::optional<AuthorizationCodeChallenge> out = args.CodeChallenge();
    out->SetChallenge("changed the copy");
    EXPECT_EQ(args.CodeChallenge()->Challenge(), "first");
    args.SetCodeChallenge(std::nullopt);
    EXPECT_FALSE(args.CodeChallenge());
}

TEST(Values, CopyIsDeepAndIndependent) {
    AuthorizationArgs a;
    a.SetScopes("openid");
    a.SetState("s1");
    AuthorizationArgs b = a;
    EXPECT_TRUE(b);
    EXPECT_NE(a.instance()->opaque, b.instance()->opaque);
    b.SetScopes("changed");
    b.SetState(std::nullopt);
    EXPECT_EQ(a.Scopes(), "openid");
    EXPECT_EQ(a.State(), "s1");
    EXPECT_EQ(b.Scopes(), "changed");

    AuthorizationArgs c;
    c = a;  // copy-assign over an owned object drops the old one
    EXPECT_EQ(c.Scopes(), "openid");
    c = c;  // self-assignment keeps the value
    EXPECT_EQ(c.Scopes(), "openid");
    {
        AuthorizationArgs shortLived;
        shortLived.SetScopes("gone soon");
        c = shortLived;
    }
    EXPECT_EQ(c.Scopes(), "gone soon");

    // copying an empty object gives an empty object
    AuthorizationArgs fromNull = AuthorizationArgs::nullobj;
    EXPECT_FALSE(fromNull);
}

TEST(Values, MoveTransfersOwnership) {
    AuthorizationArgs a;
    a.SetScopes("moved");
    void *handle = a.instance()->opaque;
    AuthorizationArgs b = std::move(a);
    EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    EXPECT_EQ(a.instance()->opaque, nullptr);
    EXPECT_TRUE(b);
    EXPECT_EQ(b.instance()->opaque, handle);
    EXPECT_EQ(b.Scopes(), "moved");

    AuthorizationArgs c;
    c = std::move(b);
    EXPECT_FALSE(b);
    EXPECT_EQ(c.Scopes(), "moved");
    c = std::move(c);
    EXPECT_TRUE(c);

    // moved-from objects can be assigned again
    b = AuthorizationArgs();
    EXPECT_TRUE(b);
    EXPECT_EQ(b.Scopes(), "");
}

TEST(Values, NullobjAndDrop) {
    EXPECT_FALSE(AuthorizationArgs::nullobj);
    EXPECT_FALSE(ClientCreateOptions::nullobj);
    EXPECT_FALSE(ClientResult::nullobj);
    EXPECT_FALSE(AuthorizationCodeChallenge::nullobj);
    EXPECT_FALSE(AuthorizationCodeVerifier::nullobj);
    EXPECT_FALSE(Client::nullobj);
    EXPECT_FALSE(AuthorizationArgs::nullobj.IsValid());
    EXPECT_EQ(&AuthorizationArgs::nullobj, &AuthorizationArgs::nullobj);

    AuthorizationCodeVerifier empty;  // not constructible by the application: empty until the SDK fills it
    EXPECT_FALSE(empty);

    AuthorizationArgs args;
    args.Drop();
    EXPECT_FALSE(args);
    args.Drop();  // idempotent
    EXPECT_FALSE(args);
}

TEST(Values, AdoptsAndExposesCHandles) {
    Svcpp_AuthorizationArgs raw{};
    ASSERT_EQ(Svcpp_AuthorizationArgs_Init(&raw), Svcpp_Errc_Ok);
    ASSERT_EQ(Svcpp_AuthorizationArgs_SetScopes(&raw, Svcpp_String{(uint8_t *)"from C", 6}), Svcpp_Errc_Ok);
    Svcpp_AuthorizationArgs view = raw;
    {
        AuthorizationArgs owned(raw, ObjectState::Owned);
        EXPECT_EQ(owned.Scopes(), "from C");
        EXPECT_TRUE(Svcpp_AuthorizationArgs_IsValid(owned.instance()));
    }  // dropped here
    EXPECT_FALSE(Svcpp_AuthorizationArgs_IsValid(&view));
}

TEST(Values, EnumNames) {
    EXPECT_STREQ(EnumToString(Client::Status::Ready), "Ready");
    EXPECT_STREQ(EnumToString(Client::Error::ConnectionFailed), "ConnectionFailed");
    EXPECT_STREQ(EnumToString(LoggingSeverity::Warning), "Warning");
    EXPECT_STREQ(EnumToString(HttpStatusCode::NotFound), "NotFound");
    EXPECT_STREQ(EnumToString(Errc::Busy), "Busy");
    EXPECT_STREQ(EnumToString(static_cast<ErrorType>(999)), "Unknown");
    EXPECT_EQ(Client::StatusToString(Client::Status::HttpWait), "HttpWait");
    EXPECT_EQ(Client::ErrorToString(Client::Error::UnexpectedClose), "UnexpectedClose");
    EXPECT_EQ(Client::ThreadToString(Client::Thread::Voice), "Voice");
    EXPECT_EQ(static_cast<int32_t>(Client::Status::Disconnected), Svcpp_Client_Status_Disconnected);
    EXPECT_EQ(static_cast<int32_t>(HttpStatusCode::NetworkAuthorizationRequired), 511);
}

// A call the C layer rejects is logged to stderr with the function and the Svcpp_Errc, and asserted in
// debug builds; in release builds the call returns the documented default.
TEST(Values, RejectedCallIsLoggedAndAssertedInDebug) {
    AuthorizationArgs moved;
    AuthorizationArgs target = std::move(moved);
    (void)target;
#ifndef NDEBUG
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(moved.SetScopes("x"), "Svcpp_AuthorizationArgs_SetScopes returned InvalidHandle");
    EXPECT_DEATH(moved.Scopes(), "Svcpp_AuthorizationArgs_Scopes returned InvalidHandle");
#else
    testing::internal::CaptureStderr();
    EXPECT_EQ(moved.Scopes(), "");
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("Svcpp_AuthorizationArgs_Scopes returned InvalidHandle"), std::string::npos) << err;
#endif
}
