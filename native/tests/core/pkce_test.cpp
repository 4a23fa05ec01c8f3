#include <gtest/gtest.h>

#include "auth/pkce.hpp"
#include "auth/scopes.hpp"

namespace pkce = svcpp::core::pkce;

TEST(Pkce, ChallengeMatchesRfc7636AppendixB) {
    EXPECT_EQ(pkce::S256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
              "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST(Pkce, Base64UrlHasNoPaddingAndUrlAlphabet) {
    const unsigned char bytes[] = {0xfb, 0xff, 0xfe, 0x01};
    EXPECT_EQ(pkce::Base64Url(bytes, 3), "-__-");
    EXPECT_EQ(pkce::Base64Url(bytes, 4), "-__-AQ");
    EXPECT_EQ(pkce::Base64Url(bytes, 1), "-w");
    EXPECT_EQ(pkce::Base64Url(bytes, 0), "");
}

TEST(Pkce, VerifierIs43CharsAndFreshEachTime) {
    auto a = pkce::CreateVerifier();
    auto b = pkce::CreateVerifier();
    EXPECT_EQ(a.verifier.size(), 43u);
    EXPECT_NE(a.verifier, b.verifier);
    EXPECT_EQ(a.challenge.challenge, pkce::S256Challenge(a.verifier));
    EXPECT_EQ(a.challenge.method, svcpp::core::AuthenticationCodeChallengeMethod::S256);
    for (char c : a.verifier) EXPECT_TRUE(isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') << c;
}

TEST(Scopes, ClientIdDefaultsToApplicationId) {
    svcpp::core::AuthorizationArgs args;
    EXPECT_EQ(svcpp::core::scopes::EffectiveClientId(args, 42), 42u);
    args.clientId = 7;
    EXPECT_EQ(svcpp::core::scopes::EffectiveClientId(args, 42), 7u);
}
