/*
 * PKCE (RFC 7636) through the ABI: verifier and challenge shape, S256, freshness; default scopes.
 * The Appendix B test vector itself is checked by the core's unit tests.
 */
#include "check.h"

/* 32 bytes in unpadded BASE64URL: 43 characters of the URL-safe alphabet, and since 43 * 6 = 258 bits
 * the last character carries 4 data bits and two zero bits. */
static void CheckBase64Url32(Svcpp_String s) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    static const char lastChars[] = "AEIMQUYcgkosw048";
    size_t i;
    CHECK_EQ_INT(s.size, 43);
    CHECK(s.ptr[43] == '\0');
    for (i = 0; i < s.size; i++) CHECK(s.ptr[i] != '\0' && strchr(alphabet, s.ptr[i]) != NULL);
    CHECK(strchr(lastChars, s.ptr[42]) != NULL);
}

int main(void) {
    Svcpp_Client client = {NULL};
    Svcpp_AuthorizationCodeVerifier v1 = {NULL}, v2 = {NULL};
    Svcpp_AuthorizationCodeChallenge c1 = {NULL}, c2 = {NULL};
    Svcpp_String verifier1 = {NULL, 0}, verifier2 = {NULL, 0}, challenge1 = {NULL, 0}, challenge2 = {NULL, 0};
    Svcpp_String s = {NULL, 0};

    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_CreateAuthorizationCodeVerifier(&client, &v1));
    CHECK_OK(Svcpp_Client_CreateAuthorizationCodeVerifier(&client, &v2));
    CHECK(Svcpp_AuthorizationCodeVerifier_IsValid(&v1));
    CHECK(v1.opaque != v2.opaque);

    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Verifier(&v1, &verifier1));
    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Verifier(&v2, &verifier2));
    CheckBase64Url32(verifier1);
    CheckBase64Url32(verifier2);
    CHECK(memcmp(verifier1.ptr, verifier2.ptr, 43) != 0); /* fresh CSPRNG bytes each time */

    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Challenge(&v1, &c1));
    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Challenge(&v2, &c2));
    CHECK_EQ_INT(Svcpp_AuthorizationCodeChallenge_Method(&c1), Svcpp_AuthenticationCodeChallengeMethod_S256);
    CHECK_EQ_INT(Svcpp_AuthorizationCodeChallenge_Method(&c2), Svcpp_AuthenticationCodeChallengeMethod_S256);
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Challenge(&c1, &challenge1));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Challenge(&c2, &challenge2));
    CheckBase64Url32(challenge1); /* SHA-256 is 32 bytes too */
    CheckBase64Url32(challenge2);
    CHECK(memcmp(challenge1.ptr, challenge2.ptr, 43) != 0);
    CHECK(memcmp(challenge1.ptr, verifier1.ptr, 43) != 0); /* S256, not "plain" */

    /* The pair is stable: reading again gives the same strings. */
    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Verifier(&v1, &s));
    CHECK(s.size == 43 && memcmp(s.ptr, verifier1.ptr, 43) == 0);
    Svcpp_Free(s.ptr);

    /* The challenge goes into AuthorizationArgs unchanged. */
    {
        Svcpp_AuthorizationArgs args = {NULL};
        Svcpp_AuthorizationCodeChallenge back = {NULL};
        CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
        CHECK_OK(Svcpp_AuthorizationArgs_SetCodeChallenge(&args, &c1));
        CHECK(Svcpp_AuthorizationArgs_CodeChallenge(&args, &back));
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Challenge(&back, &s));
        CHECK(s.size == 43 && memcmp(s.ptr, challenge1.ptr, 43) == 0);
        Svcpp_Free(s.ptr);
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&back));
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
    }

    Svcpp_Free(verifier1.ptr);
    Svcpp_Free(verifier2.ptr);
    Svcpp_Free(challenge1.ptr);
    Svcpp_Free(challenge2.ptr);
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&c1));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&c2));
    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Drop(&v1));
    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Drop(&v2));

    /* A verifier needs a live client. */
    {
        Svcpp_AuthorizationCodeVerifier none = {NULL};
        Svcpp_Client stale = client;
        CHECK_OK(Svcpp_Client_Drop(&client));
        CHECK_ERRC(Svcpp_Client_CreateAuthorizationCodeVerifier(&stale, &none), Svcpp_Errc_InvalidHandle);
        CHECK(none.opaque == NULL);
    }

    /* Default scopes (static: no client needed). */
    CHECK_OK(Svcpp_Client_GetDefaultCommunicationScopes(&s));
    CHECK_STR_TAKE(s, "openid sdk.social_layer");
    CHECK_OK(Svcpp_Client_GetDefaultPresenceScopes(&s));
    CHECK_STR_TAKE(s, "openid sdk.social_layer_presence");
    puts("pkce: ok");
    return 0;
}
