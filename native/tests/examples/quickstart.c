/*
 * The C ABI from plain C99, with nothing but svcpp.h: check that the library implements the ABI this header
 * describes, print the versions, make a PKCE pair and put its challenge into AuthorizationArgs, as a launcher
 * does before Svcpp_Client_Authorize. No network.
 *
 * Usage: svcpp_example_quickstart
 * Prints "svcpp <major>.<minor>.<patch> abi <major>.<minor>", "scopes <default scopes>" and
 * "pkce <verifier length> <challenge length> <client id>"; exits 0, or 1 naming the call that failed.
 * (ctest runs it as example.quickstart; the SDK archive's test builds it from the extracted archive.)
 */
#include <stdio.h>
#include <string.h>

#include "svcpp.h"

/* Prints the failed call and the library's reason, then fails the program. */
static int Failed(const char *call) {
    Svcpp_String why = {NULL, 0};
    if (Svcpp_GetLastErrorMessage(&why) == Svcpp_Errc_Ok) {
        fprintf(stderr, "%s failed: %.*s\n", call, (int)why.size, (const char *)why.ptr);
        Svcpp_Free(why.ptr);
    } else {
        fprintf(stderr, "%s failed\n", call);
    }
    return 1;
}

#define TRY(call)                                          \
    do {                                                   \
        if ((call) != Svcpp_Errc_Ok) return Failed(#call); \
    } while (0)

int main(void) {
    Svcpp_Client client = {NULL};
    Svcpp_AuthorizationCodeVerifier verifier = {NULL};
    Svcpp_AuthorizationCodeChallenge challenge = {NULL}, stored = {NULL};
    Svcpp_AuthorizationArgs args = {NULL};
    Svcpp_String scopes = {NULL, 0}, verifierText = {NULL, 0}, challengeText = {NULL, 0};

    /* A library of another ABI major (or an older minor) would misread every call: refuse it first. */
    TRY(Svcpp_CheckAbiVersion(SVCPP_ABI_VERSION));
    printf("svcpp %d.%d.%d abi %d.%d\n", (int)Svcpp_Client_GetVersionMajor(), (int)Svcpp_Client_GetVersionMinor(),
           (int)Svcpp_Client_GetVersionPatch(), SVCPP_ABI_VERSION_MAJOR, SVCPP_ABI_VERSION_MINOR);

    TRY(Svcpp_Client_GetDefaultCommunicationScopes(&scopes));
    printf("scopes %.*s\n", (int)scopes.size, (const char *)scopes.ptr);

    TRY(Svcpp_Client_Init(&client));
    TRY(Svcpp_Client_CreateAuthorizationCodeVerifier(&client, &verifier));
    TRY(Svcpp_AuthorizationCodeVerifier_Verifier(&verifier, &verifierText));
    TRY(Svcpp_AuthorizationCodeVerifier_Challenge(&verifier, &challenge));

    /* The arguments of Svcpp_Client_Authorize: our application, the scopes, the challenge (read back). */
    TRY(Svcpp_AuthorizationArgs_Init(&args));
    TRY(Svcpp_AuthorizationArgs_SetClientId(&args, 1234567890123456789ull));
    TRY(Svcpp_AuthorizationArgs_SetScopes(&args, scopes));
    TRY(Svcpp_AuthorizationArgs_SetCodeChallenge(&args, &challenge));
    if (!Svcpp_AuthorizationArgs_CodeChallenge(&args, &stored)) return Failed("Svcpp_AuthorizationArgs_CodeChallenge");
    TRY(Svcpp_AuthorizationCodeChallenge_Challenge(&stored, &challengeText));
    printf("pkce %u %u %llu\n", (unsigned)verifierText.size, (unsigned)challengeText.size,
           (unsigned long long)Svcpp_AuthorizationArgs_ClientId(&args));

    Svcpp_Free(scopes.ptr);
    Svcpp_Free(verifierText.ptr);
    Svcpp_Free(challengeText.ptr);
    TRY(Svcpp_AuthorizationArgs_Drop(&args));
    TRY(Svcpp_AuthorizationCodeChallenge_Drop(&stored));
    TRY(Svcpp_AuthorizationCodeChallenge_Drop(&challenge));
    TRY(Svcpp_AuthorizationCodeVerifier_Drop(&verifier));
    TRY(Svcpp_Client_Drop(&client));
    return 0;
}
