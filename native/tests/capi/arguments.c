/*
 * Non-string argument validation: NULL required out-params, unknown enum values, the IDL `min` of
 * SetHttpRequestTimeout, NaN floats. Every rejected call keeps the old value.
 */
#include <math.h>

#include "check.h"

int main(void) {
    Svcpp_ClientCreateOptions opts = {NULL};
    Svcpp_ClientResult result = {NULL};
    Svcpp_AuthorizationCodeChallenge challenge = {NULL};
    Svcpp_AuthorizationCodeVerifier verifier = {NULL};
    Svcpp_AuthorizationArgs args = {NULL};
    Svcpp_Client client = {NULL};

    CHECK_OK(Svcpp_ClientCreateOptions_Init(&opts));
    CHECK_OK(Svcpp_ClientResult_Init(&result));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Init(&challenge));
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_CreateAuthorizationCodeVerifier(&client, &verifier));

    /* ---- NULL required out-params: NullArgument ---------------------------------------------------- */
    CHECK_ERRC(Svcpp_ClientCreateOptions_ApiBase(&opts, NULL), Svcpp_Errc_NullArgument);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientCreateOptions_ApiBase");
    CHECK_ERRC(Svcpp_ClientCreateOptions_WebBase(&opts, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_ClientCreateOptions_CaFile(&opts, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_ClientResult_Error(&result, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_ClientResult_ResponseBody(&result, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_ClientResult_ToString(&result, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_AuthorizationCodeChallenge_Challenge(&challenge, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_Challenge(&verifier, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_Verifier(&verifier, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_AuthorizationArgs_Scopes(&args, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_CreateAuthorizationCodeVerifier(&client, NULL), Svcpp_Errc_NullArgument);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_CreateAuthorizationCodeVerifier");
    CHECK_ERRC(Svcpp_Client_GetDefaultCommunicationScopes(NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_GetDefaultPresenceScopes(NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_GetVersionHash(NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_GetLastErrorMessage(NULL), Svcpp_Errc_NullArgument);

    /* Optional getters with a NULL out: false (misuse), even when the value is present. */
    {
        uint64_t mask = 3;
        Svcpp_String st = S("state");
        Svcpp_IntegrationType it = Svcpp_IntegrationType_UserInstall;
        Svcpp_AuthorizationCodeChallenge out = {NULL};
        CHECK_OK(Svcpp_ClientCreateOptions_SetCpuAffinityMask(&opts, &mask));
        CHECK(!Svcpp_ClientCreateOptions_CpuAffinityMask(&opts, NULL));
        CHECK_OK(Svcpp_AuthorizationArgs_SetState(&args, &st));
        CHECK(!Svcpp_AuthorizationArgs_State(&args, NULL));
        CHECK_OK(Svcpp_AuthorizationArgs_SetIntegrationType(&args, &it));
        CHECK(!Svcpp_AuthorizationArgs_IntegrationType(&args, NULL));
        CHECK_OK(Svcpp_AuthorizationArgs_SetCodeChallenge(&args, &challenge));
        CHECK(!Svcpp_AuthorizationArgs_CodeChallenge(&args, NULL));
        /* the values are still there */
        CHECK(Svcpp_ClientCreateOptions_CpuAffinityMask(&opts, &mask) && mask == 3);
        CHECK(Svcpp_AuthorizationArgs_CodeChallenge(&args, &out));
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&out));
    }

    /* A required object input that is NULL, zeroed or dropped. */
    {
        Svcpp_AuthorizationCodeChallenge zero = {NULL};
        Svcpp_AuthorizationCodeChallenge out = {NULL};
        CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_SetChallenge(&verifier, NULL), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_SetChallenge(&verifier, &zero), Svcpp_Errc_InvalidHandle);
        CHECK_ERRC(Svcpp_AuthorizationArgs_SetCodeChallenge(&args, &zero), Svcpp_Errc_InvalidHandle);
        CHECK(Svcpp_AuthorizationArgs_CodeChallenge(&args, &out)); /* unchanged: still set */
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&out));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Challenge(&verifier, &out));
        CHECK(Svcpp_AuthorizationCodeChallenge_IsValid(&out));
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&out));
    }

    /* ---- Unknown enum values: InvalidArgument, old value kept -------------------------------------- */
    CHECK_OK(Svcpp_ClientCreateOptions_SetExperimentalAudioSystem(&opts, Svcpp_AudioSystem_Game));
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetExperimentalAudioSystem(&opts, (Svcpp_AudioSystem)2),
               Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientCreateOptions_SetExperimentalAudioSystem");
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetExperimentalAudioSystem(&opts, (Svcpp_AudioSystem)-1),
               Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetExperimentalAudioSystem(&opts, Svcpp_AudioSystem_forceint),
               Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_ClientCreateOptions_ExperimentalAudioSystem(&opts), Svcpp_AudioSystem_Game);

    CHECK_ERRC(Svcpp_AuthorizationCodeChallenge_SetMethod(&challenge, (Svcpp_AuthenticationCodeChallengeMethod)1),
               Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_AuthorizationCodeChallenge_Method(&challenge), Svcpp_AuthenticationCodeChallengeMethod_S256);

    CHECK_OK(Svcpp_ClientResult_SetType(&result, Svcpp_ErrorType_HTTPError));
    CHECK_ERRC(Svcpp_ClientResult_SetType(&result, (Svcpp_ErrorType)10), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_ClientResult_SetType(&result, (Svcpp_ErrorType)-1), Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_ClientResult_Type(&result), Svcpp_ErrorType_HTTPError);

    /* HttpStatusCode is sparse: values between known codes are unknown too. */
    CHECK_OK(Svcpp_ClientResult_SetStatus(&result, Svcpp_HttpStatusCode_TooManyRequests));
    CHECK_ERRC(Svcpp_ClientResult_SetStatus(&result, (Svcpp_HttpStatusCode)299), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_ClientResult_SetStatus(&result, (Svcpp_HttpStatusCode)1), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_ClientResult_SetStatus(&result, (Svcpp_HttpStatusCode)305), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_ClientResult_SetStatus(&result, (Svcpp_HttpStatusCode)600), Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_ClientResult_Status(&result), Svcpp_HttpStatusCode_TooManyRequests);
    CHECK_OK(Svcpp_ClientResult_SetStatus(&result, Svcpp_HttpStatusCode_NetworkAuthorizationRequired));
    CHECK_OK(Svcpp_ClientResult_SetStatus(&result, Svcpp_HttpStatusCode_None));

    {
        Svcpp_IntegrationType user = Svcpp_IntegrationType_UserInstall;
        Svcpp_IntegrationType bad = (Svcpp_IntegrationType)2;
        Svcpp_IntegrationType out = Svcpp_IntegrationType_GuildInstall;
        CHECK_OK(Svcpp_AuthorizationArgs_SetIntegrationType(&args, &user));
        CHECK_ERRC(Svcpp_AuthorizationArgs_SetIntegrationType(&args, &bad), Svcpp_Errc_InvalidArgument);
        CHECK(Svcpp_AuthorizationArgs_IntegrationType(&args, &out));
        CHECK_EQ_INT(out, Svcpp_IntegrationType_UserInstall);
    }

    /* ---- IDL min: the HTTP timeout must be >= 1 ms --------------------------------------------------- */
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&client), 30000);
    CHECK_ERRC(Svcpp_Client_SetHttpRequestTimeout(&client, 0), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_SetHttpRequestTimeout");
    CHECK_ERRC(Svcpp_Client_SetHttpRequestTimeout(&client, -1), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetHttpRequestTimeout(&client, INT32_MIN), Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&client), 30000);
    CHECK_OK(Svcpp_Client_SetHttpRequestTimeout(&client, 1));
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&client), 1);
    CHECK_OK(Svcpp_Client_SetHttpRequestTimeout(&client, INT32_MAX));
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&client), INT32_MAX);

    /* ---- NaN is not a number of seconds ---------------------------------------------------------------- */
    CHECK_OK(Svcpp_ClientResult_SetRetryAfter(&result, 2.5f));
    CHECK_ERRC(Svcpp_ClientResult_SetRetryAfter(&result, (float)NAN), Svcpp_Errc_InvalidArgument);
    CHECK(Svcpp_ClientResult_RetryAfter(&result) == 2.5f);

    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Drop(&verifier));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&challenge));
    CHECK_OK(Svcpp_ClientResult_Drop(&result));
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&opts));
    puts("arguments: ok");
    return 0;
}
