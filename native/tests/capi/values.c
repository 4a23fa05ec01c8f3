/*
 * Value semantics: every field's default, round-trip of every field, optional set / clear (and
 * "present but empty/zero" versus absent), Clone is a deep and independent copy, sub-objects are copied
 * in and out, Init and Clone overwrite *self without dropping what it held. Client defaults.
 */
#include "check.h"

static void CheckArgsDefaults(Svcpp_AuthorizationArgs *a) {
    Svcpp_String s = {NULL, 0};
    Svcpp_AuthorizationCodeChallenge c = {NULL};
    Svcpp_IntegrationType it;
    CHECK_EQ_INT(Svcpp_AuthorizationArgs_ClientId(a), 0);
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(a, &s));
    CHECK_STR_TAKE(s, "");
    s.ptr = NULL;
    s.size = 0;
    CHECK(!Svcpp_AuthorizationArgs_State(a, &s));
    CHECK(!Svcpp_AuthorizationArgs_Nonce(a, &s));
    CHECK(!Svcpp_AuthorizationArgs_CodeChallenge(a, &c));
    CHECK(c.opaque == NULL);
    CHECK(!Svcpp_AuthorizationArgs_IntegrationType(a, &it));
    CHECK(!Svcpp_AuthorizationArgs_CustomSchemeParam(a, &s));
    CHECK(s.ptr == NULL);
}

static Svcpp_AuthorizationCodeChallenge MakeChallenge(const char *text) {
    Svcpp_AuthorizationCodeChallenge c = {NULL};
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Init(&c));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_SetChallenge(&c, S(text)));
    return c;
}

static void CheckChallengeText(Svcpp_AuthorizationCodeChallenge const *c, const char *text) {
    Svcpp_String s = {NULL, 0};
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Challenge(c, &s));
    CHECK_STR_TAKE(s, text);
}

static void CheckArgsChallenge(Svcpp_AuthorizationArgs const *a, const char *text) {
    Svcpp_AuthorizationCodeChallenge c = {NULL};
    CHECK(Svcpp_AuthorizationArgs_CodeChallenge(a, &c));
    CheckChallengeText(&c, text);
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&c));
}

static void ArgsRoundTrip(void) {
    Svcpp_AuthorizationArgs a = {NULL};
    Svcpp_String s = {NULL, 0};
    Svcpp_String in;
    Svcpp_IntegrationType it;
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&a));
    CheckArgsDefaults(&a);

    CHECK_OK(Svcpp_AuthorizationArgs_SetClientId(&a, 1234567890123456789ull));
    CHECK_EQ_INT(Svcpp_AuthorizationArgs_ClientId(&a), 1234567890123456789ll);
    CHECK_OK(Svcpp_AuthorizationArgs_SetClientId(&a, UINT64_MAX));
    CHECK(Svcpp_AuthorizationArgs_ClientId(&a) == UINT64_MAX);
    CHECK_OK(Svcpp_AuthorizationArgs_SetClientId(&a, 0));
    CHECK_EQ_INT(Svcpp_AuthorizationArgs_ClientId(&a), 0);

    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&a, S("openid sdk.social_layer")));
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&a, &s));
    CHECK_STR_TAKE(s, "openid sdk.social_layer");
    /* embedded NUL bytes are content */
    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&a, SN("a\0b", 3)));
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&a, &s));
    CHECK(s.size == 3 && memcmp(s.ptr, "a\0b", 3) == 0 && s.ptr[3] == '\0');
    Svcpp_Free(s.ptr);

    /* Optional strings: set, present-but-empty, clear. */
    in = S("csrf-123");
    CHECK_OK(Svcpp_AuthorizationArgs_SetState(&a, &in));
    CHECK(Svcpp_AuthorizationArgs_State(&a, &s));
    CHECK_STR_TAKE(s, "csrf-123");
    in = S("");
    CHECK_OK(Svcpp_AuthorizationArgs_SetState(&a, &in));
    s.ptr = NULL;
    CHECK(Svcpp_AuthorizationArgs_State(&a, &s));
    CHECK_STR_TAKE(s, "");
    CHECK_OK(Svcpp_AuthorizationArgs_SetState(&a, NULL));
    CHECK(!Svcpp_AuthorizationArgs_State(&a, &s));

    in = S("n-once");
    CHECK_OK(Svcpp_AuthorizationArgs_SetNonce(&a, &in));
    CHECK(Svcpp_AuthorizationArgs_Nonce(&a, &s));
    CHECK_STR_TAKE(s, "n-once");
    CHECK_OK(Svcpp_AuthorizationArgs_SetNonce(&a, NULL));
    CHECK(!Svcpp_AuthorizationArgs_Nonce(&a, &s));

    in = S("mygame");
    CHECK_OK(Svcpp_AuthorizationArgs_SetCustomSchemeParam(&a, &in));
    CHECK(Svcpp_AuthorizationArgs_CustomSchemeParam(&a, &s));
    CHECK_STR_TAKE(s, "mygame");
    CHECK_OK(Svcpp_AuthorizationArgs_SetCustomSchemeParam(&a, NULL));
    CHECK(!Svcpp_AuthorizationArgs_CustomSchemeParam(&a, &s));

    /* Optional enum: both values, then clear. */
    it = Svcpp_IntegrationType_GuildInstall;
    CHECK_OK(Svcpp_AuthorizationArgs_SetIntegrationType(&a, &it));
    it = Svcpp_IntegrationType_UserInstall;
    CHECK(Svcpp_AuthorizationArgs_IntegrationType(&a, &it));
    CHECK_EQ_INT(it, Svcpp_IntegrationType_GuildInstall); /* present with value 0, not absent */
    it = Svcpp_IntegrationType_UserInstall;
    CHECK_OK(Svcpp_AuthorizationArgs_SetIntegrationType(&a, &it));
    it = Svcpp_IntegrationType_GuildInstall;
    CHECK(Svcpp_AuthorizationArgs_IntegrationType(&a, &it));
    CHECK_EQ_INT(it, Svcpp_IntegrationType_UserInstall);
    CHECK_OK(Svcpp_AuthorizationArgs_SetIntegrationType(&a, NULL));
    CHECK(!Svcpp_AuthorizationArgs_IntegrationType(&a, &it));

    /* Optional sub-object: copied in (later changes to the source do not show), copied out (the caller
     * owns the result; changing it does not change the args), clear. */
    {
        Svcpp_AuthorizationCodeChallenge c = MakeChallenge("first");
        Svcpp_AuthorizationCodeChallenge out = {NULL};
        CHECK_OK(Svcpp_AuthorizationArgs_SetCodeChallenge(&a, &c));
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_SetChallenge(&c, S("changed-after-set")));
        CheckArgsChallenge(&a, "first");
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&c));
        CheckArgsChallenge(&a, "first");

        CHECK(Svcpp_AuthorizationArgs_CodeChallenge(&a, &out));
        CHECK_EQ_INT(Svcpp_AuthorizationCodeChallenge_Method(&out), Svcpp_AuthenticationCodeChallengeMethod_S256);
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_SetChallenge(&out, S("changed-the-copy")));
        CheckArgsChallenge(&a, "first");
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&out));

        CHECK_OK(Svcpp_AuthorizationArgs_SetCodeChallenge(&a, NULL));
        CHECK(!Svcpp_AuthorizationArgs_CodeChallenge(&a, &out));
        CHECK(out.opaque == NULL);
    }
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&a));
}

static void ArgsCloneIsDeep(void) {
    Svcpp_AuthorizationArgs a = {NULL}, b = {NULL};
    Svcpp_AuthorizationCodeChallenge c = MakeChallenge("orig-challenge");
    Svcpp_String st = S("orig-state");
    Svcpp_String s = {NULL, 0};
    Svcpp_IntegrationType it = Svcpp_IntegrationType_UserInstall;

    CHECK_OK(Svcpp_AuthorizationArgs_Init(&a));
    CHECK_OK(Svcpp_AuthorizationArgs_SetClientId(&a, 42));
    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&a, S("openid")));
    CHECK_OK(Svcpp_AuthorizationArgs_SetState(&a, &st));
    CHECK_OK(Svcpp_AuthorizationArgs_SetCodeChallenge(&a, &c));
    CHECK_OK(Svcpp_AuthorizationArgs_SetIntegrationType(&a, &it));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&c));

    CHECK_OK(Svcpp_AuthorizationArgs_Clone(&b, &a));
    /* The clone has every value. */
    CHECK_EQ_INT(Svcpp_AuthorizationArgs_ClientId(&b), 42);
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&b, &s));
    CHECK_STR_TAKE(s, "openid");
    CHECK(Svcpp_AuthorizationArgs_State(&b, &s));
    CHECK_STR_TAKE(s, "orig-state");
    CheckArgsChallenge(&b, "orig-challenge");
    CHECK(Svcpp_AuthorizationArgs_IntegrationType(&b, &it) && it == Svcpp_IntegrationType_UserInstall);
    CHECK(!Svcpp_AuthorizationArgs_Nonce(&b, &s));

    /* Changing the clone (including its sub-object) leaves the original alone, and vice versa. */
    c = MakeChallenge("clone-challenge");
    CHECK_OK(Svcpp_AuthorizationArgs_SetCodeChallenge(&b, &c));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&c));
    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&b, S("clone")));
    CHECK_OK(Svcpp_AuthorizationArgs_SetState(&b, NULL));
    CHECK_OK(Svcpp_AuthorizationArgs_SetClientId(&a, 7));
    CHECK_EQ_INT(Svcpp_AuthorizationArgs_ClientId(&b), 42);
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&a, &s));
    CHECK_STR_TAKE(s, "openid");
    CHECK(Svcpp_AuthorizationArgs_State(&a, &s));
    CHECK_STR_TAKE(s, "orig-state");
    CheckArgsChallenge(&a, "orig-challenge");
    CheckArgsChallenge(&b, "clone-challenge");

    /* The clone outlives the original. */
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&a));
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&b, &s));
    CHECK_STR_TAKE(s, "clone");
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&b));
}

static void InitAndCloneOverwrite(void) {
    Svcpp_AuthorizationArgs a = {NULL}, first, target, src = {NULL};
    Svcpp_String s = {NULL, 0};
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&a));
    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&a, S("first object")));
    first = a;
    /* Init writes a new, empty object into a; the first object is not dropped (first still reaches it). */
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&a));
    CHECK(a.opaque != first.opaque);
    CheckArgsDefaults(&a);
    CHECK(Svcpp_AuthorizationArgs_IsValid(&first));
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&first, &s));
    CHECK_STR_TAKE(s, "first object");
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&first));
    /* Clone overwrites the same way: target held a's object, which stays alive in a. */
    target = a;
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&src));
    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&src, S("source")));
    CHECK_OK(Svcpp_AuthorizationArgs_Clone(&target, &src));
    CHECK(target.opaque != a.opaque && target.opaque != src.opaque);
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&target, &s));
    CHECK_STR_TAKE(s, "source");
    CHECK(Svcpp_AuthorizationArgs_IsValid(&a));
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&a, &s));
    CHECK_STR_TAKE(s, "");
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&a));
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&target));
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&src));
}

static void OptionsValues(void) {
    Svcpp_ClientCreateOptions o = {NULL}, copy = {NULL};
    Svcpp_String s = {NULL, 0};
    uint64_t mask = 99;
    CHECK_OK(Svcpp_ClientCreateOptions_Init(&o));
    /* defaults */
    CHECK_OK(Svcpp_ClientCreateOptions_ApiBase(&o, &s));
    CHECK_STR_TAKE(s, "");
    CHECK_OK(Svcpp_ClientCreateOptions_WebBase(&o, &s));
    CHECK_STR_TAKE(s, "");
    CHECK_OK(Svcpp_ClientCreateOptions_CaFile(&o, &s));
    CHECK_STR_TAKE(s, "");
    CHECK_EQ_INT(Svcpp_ClientCreateOptions_ExperimentalAudioSystem(&o), Svcpp_AudioSystem_Standard);
    CHECK(!Svcpp_ClientCreateOptions_ExperimentalAndroidPreventCommsForBluetooth(&o));
    CHECK(!Svcpp_ClientCreateOptions_CpuAffinityMask(&o, &mask));
    CHECK_EQ_INT(mask, 99);
    /* round trip */
    CHECK_OK(Svcpp_ClientCreateOptions_SetApiBase(&o, S("http://127.0.0.1:8080/api/v10")));
    CHECK_OK(Svcpp_ClientCreateOptions_SetWebBase(&o, S("http://127.0.0.1:8080")));
    CHECK_OK(Svcpp_ClientCreateOptions_SetCaFile(&o, S("/etc/ssl/local.pem")));
    CHECK_OK(Svcpp_ClientCreateOptions_SetExperimentalAudioSystem(&o, Svcpp_AudioSystem_Game));
    CHECK_OK(Svcpp_ClientCreateOptions_SetExperimentalAndroidPreventCommsForBluetooth(&o, true));
    mask = 0; /* present with value 0 is not absent */
    CHECK_OK(Svcpp_ClientCreateOptions_SetCpuAffinityMask(&o, &mask));
    mask = 5;
    CHECK(Svcpp_ClientCreateOptions_CpuAffinityMask(&o, &mask));
    CHECK_EQ_INT(mask, 0);
    mask = 0x8000000000000001ull;
    CHECK_OK(Svcpp_ClientCreateOptions_SetCpuAffinityMask(&o, &mask));
    mask = 0;
    CHECK(Svcpp_ClientCreateOptions_CpuAffinityMask(&o, &mask));
    CHECK(mask == 0x8000000000000001ull);
    CHECK_OK(Svcpp_ClientCreateOptions_ApiBase(&o, &s));
    CHECK_STR_TAKE(s, "http://127.0.0.1:8080/api/v10");
    CHECK_OK(Svcpp_ClientCreateOptions_WebBase(&o, &s));
    CHECK_STR_TAKE(s, "http://127.0.0.1:8080");
    CHECK_OK(Svcpp_ClientCreateOptions_CaFile(&o, &s));
    CHECK_STR_TAKE(s, "/etc/ssl/local.pem");
    CHECK_EQ_INT(Svcpp_ClientCreateOptions_ExperimentalAudioSystem(&o), Svcpp_AudioSystem_Game);
    CHECK(Svcpp_ClientCreateOptions_ExperimentalAndroidPreventCommsForBluetooth(&o));
    /* clone independence */
    CHECK_OK(Svcpp_ClientCreateOptions_Clone(&copy, &o));
    CHECK_OK(Svcpp_ClientCreateOptions_SetCpuAffinityMask(&o, NULL));
    CHECK_OK(Svcpp_ClientCreateOptions_SetApiBase(&o, S("")));
    CHECK(!Svcpp_ClientCreateOptions_CpuAffinityMask(&o, &mask));
    CHECK(Svcpp_ClientCreateOptions_CpuAffinityMask(&copy, &mask) && mask == 0x8000000000000001ull);
    CHECK_OK(Svcpp_ClientCreateOptions_ApiBase(&copy, &s));
    CHECK_STR_TAKE(s, "http://127.0.0.1:8080/api/v10");
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&o));
    CHECK(Svcpp_ClientCreateOptions_ExperimentalAndroidPreventCommsForBluetooth(&copy));
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&copy));
}

static void ResultValues(void) {
    Svcpp_ClientResult r = {NULL}, copy = {NULL};
    Svcpp_String s = {NULL, 0};
    CHECK_OK(Svcpp_ClientResult_Init(&r));
    /* defaults: a success with nothing else set */
    CHECK_EQ_INT(Svcpp_ClientResult_Type(&r), Svcpp_ErrorType_None);
    CHECK(Svcpp_ClientResult_Successful(&r));
    CHECK_OK(Svcpp_ClientResult_Error(&r, &s));
    CHECK_STR_TAKE(s, "");
    CHECK_EQ_INT(Svcpp_ClientResult_ErrorCode(&r), 0);
    CHECK_EQ_INT(Svcpp_ClientResult_Status(&r), Svcpp_HttpStatusCode_None);
    CHECK_OK(Svcpp_ClientResult_ResponseBody(&r, &s));
    CHECK_STR_TAKE(s, "");
    CHECK(!Svcpp_ClientResult_Retryable(&r));
    CHECK(Svcpp_ClientResult_RetryAfter(&r) == 0.0f);
    CHECK_OK(Svcpp_ClientResult_ToString(&r, &s));
    CHECK(s.ptr != NULL && s.size > 0 && s.ptr[s.size] == '\0');
    Svcpp_Free(s.ptr);
    /* round trip */
    CHECK_OK(Svcpp_ClientResult_SetType(&r, Svcpp_ErrorType_HTTPError));
    CHECK_OK(Svcpp_ClientResult_SetError(&r, S("rate limited")));
    CHECK_OK(Svcpp_ClientResult_SetErrorCode(&r, -40002));
    CHECK_OK(Svcpp_ClientResult_SetStatus(&r, Svcpp_HttpStatusCode_TooManyRequests));
    CHECK_OK(Svcpp_ClientResult_SetResponseBody(&r, S("{\"retry_after\": 1.25}")));
    CHECK_OK(Svcpp_ClientResult_SetRetryable(&r, true));
    CHECK_OK(Svcpp_ClientResult_SetRetryAfter(&r, 1.25f));
    CHECK_EQ_INT(Svcpp_ClientResult_Type(&r), Svcpp_ErrorType_HTTPError);
    CHECK(!Svcpp_ClientResult_Successful(&r));
    CHECK_OK(Svcpp_ClientResult_Error(&r, &s));
    CHECK_STR_TAKE(s, "rate limited");
    CHECK_EQ_INT(Svcpp_ClientResult_ErrorCode(&r), -40002);
    CHECK_EQ_INT(Svcpp_ClientResult_Status(&r), Svcpp_HttpStatusCode_TooManyRequests);
    CHECK_OK(Svcpp_ClientResult_ResponseBody(&r, &s));
    CHECK_STR_TAKE(s, "{\"retry_after\": 1.25}");
    CHECK(Svcpp_ClientResult_Retryable(&r));
    CHECK(Svcpp_ClientResult_RetryAfter(&r) == 1.25f);
    CHECK_OK(Svcpp_ClientResult_ToString(&r, &s));
    CHECK(StrContains(s, "rate limited"));
    Svcpp_Free(s.ptr);
    /* clone independence */
    CHECK_OK(Svcpp_ClientResult_Clone(&copy, &r));
    CHECK_OK(Svcpp_ClientResult_SetType(&r, Svcpp_ErrorType_None));
    CHECK_OK(Svcpp_ClientResult_SetError(&r, S("")));
    CHECK_EQ_INT(Svcpp_ClientResult_Type(&copy), Svcpp_ErrorType_HTTPError);
    CHECK_OK(Svcpp_ClientResult_Error(&copy, &s));
    CHECK_STR_TAKE(s, "rate limited");
    CHECK_OK(Svcpp_ClientResult_Drop(&r));
    CHECK_OK(Svcpp_ClientResult_Drop(&copy));
}

static void ChallengeAndVerifierValues(void) {
    Svcpp_AuthorizationCodeChallenge c = {NULL}, copy = {NULL};
    Svcpp_String s = {NULL, 0};
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Init(&c));
    CHECK_EQ_INT(Svcpp_AuthorizationCodeChallenge_Method(&c), Svcpp_AuthenticationCodeChallengeMethod_S256);
    CheckChallengeText(&c, "");
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_SetChallenge(&c, S("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuKBe9-jJsg-cM")));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_SetMethod(&c, Svcpp_AuthenticationCodeChallengeMethod_S256));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Clone(&copy, &c));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_SetChallenge(&c, S("x")));
    CheckChallengeText(&copy, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuKBe9-jJsg-cM");
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&c));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&copy));

    /* AuthorizationCodeVerifier (SDK-produced): setters, sub-object copy in/out, clone. */
    {
        Svcpp_Client client = {NULL};
        Svcpp_AuthorizationCodeVerifier v = {NULL}, vc = {NULL};
        Svcpp_AuthorizationCodeChallenge mine = MakeChallenge("mine");
        Svcpp_AuthorizationCodeChallenge out = {NULL};
        CHECK_OK(Svcpp_Client_Init(&client));
        CHECK_OK(Svcpp_Client_CreateAuthorizationCodeVerifier(&client, &v));
        CHECK_OK(Svcpp_Client_Drop(&client));
        CHECK(Svcpp_AuthorizationCodeVerifier_IsValid(&v)); /* a value, not tied to the client */
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Clone(&vc, &v));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_SetVerifier(&v, S("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_SetChallenge(&v, &mine));
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_SetChallenge(&mine, S("changed")));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Challenge(&v, &out));
        CheckChallengeText(&out, "mine");
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&out));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Verifier(&v, &s));
        CHECK_STR_TAKE(s, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        /* the clone kept the generated pair */
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Verifier(&vc, &s));
        CHECK(s.size == 43);
        Svcpp_Free(s.ptr);
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Challenge(&vc, &out));
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Challenge(&out, &s));
        CHECK(s.size == 43);
        Svcpp_Free(s.ptr);
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&out));
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&mine));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Drop(&v));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Drop(&vc));
    }
}

static void ClientValues(void) {
    Svcpp_Client c = {NULL};
    Svcpp_ClientCreateOptions o = {NULL};
    CHECK_OK(Svcpp_Client_Init(&c));
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&c), 30000);
    CHECK_EQ_INT(Svcpp_Client_GetStatus(&c), Svcpp_Client_Status_Disconnected);
    CHECK_EQ_INT(Svcpp_Client_GetApplicationId(&c), 0);
    CHECK(!Svcpp_Client_HasPendingCallbacks(&c));
    CHECK_OK(Svcpp_Client_SetApplicationId(&c, 1349146942634065960ull));
    CHECK(Svcpp_Client_GetApplicationId(&c) == 1349146942634065960ull);
    CHECK_OK(Svcpp_Client_SetApplicationId(&c, UINT64_MAX));
    CHECK(Svcpp_Client_GetApplicationId(&c) == UINT64_MAX);
    CHECK_OK(Svcpp_Client_SetHttpRequestTimeout(&c, 2500));
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&c), 2500);
    CHECK_OK(Svcpp_Client_Drop(&c));

    /* The other constructors give the same defaults; options are copied (dropping them is fine). */
    CHECK_OK(Svcpp_Client_InitWithBases(&c, S("http://127.0.0.1:1/api/v10"), S("http://127.0.0.1:1")));
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&c), 30000);
    CHECK_EQ_INT(Svcpp_Client_GetStatus(&c), Svcpp_Client_Status_Disconnected);
    CHECK_OK(Svcpp_Client_Drop(&c));
    CHECK_OK(Svcpp_ClientCreateOptions_Init(&o));
    CHECK_OK(Svcpp_ClientCreateOptions_SetApiBase(&o, S("http://127.0.0.1:1/api/v10")));
    CHECK_OK(Svcpp_Client_InitWithOptions(&c, &o));
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&o));
    CHECK_EQ_INT(Svcpp_Client_GetApplicationId(&c), 0);
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(&c), 30000);
    CHECK_OK(Svcpp_Client_Drop(&c));
}

int main(void) {
    ArgsRoundTrip();
    ArgsCloneIsDeep();
    InitAndCloneOverwrite();
    OptionsValues();
    ResultValues();
    ChallengeAndVerifierValues();
    ClientValues();
    puts("values: ok");
    return 0;
}
