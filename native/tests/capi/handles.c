/*
 * Handle misuse: NULL self, zeroed, dropped (stale copy), wrong-type and garbage handles are rejected by
 * every function of every type with Svcpp_Errc_InvalidHandle (or the documented default / false), never
 * crash, change nothing, and take no callback triple. Init/Clone/Drop/IsValid rules.
 */
#include "check.h"

static char sentinelBytes[] = "sentinel";
#define SENTINEL_STRING \
    { (uint8_t *)sentinelBytes, 12345 }
#define CHECK_UNTOUCHED_STRING(s) CHECK((s).ptr == (uint8_t *)sentinelBytes && (s).size == 12345)
static void *const sentinelOpaque = (void *)&sentinelBytes[1];

static unsigned char garbage[64];

/* Every ClientCreateOptions function on an invalid self. */
static void SweepOptions(Svcpp_ClientCreateOptions *h) {
    Svcpp_String s = SENTINEL_STRING;
    uint64_t mask = 77;
    Svcpp_ClientCreateOptions clone = {sentinelOpaque};
    CHECK(!Svcpp_ClientCreateOptions_IsValid(h));
    CHECK_ERRC(Svcpp_ClientCreateOptions_ApiBase(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetApiBase(h, S("x")), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_ClientCreateOptions_WebBase(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetWebBase(h, S("x")), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_ClientCreateOptions_CaFile(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetCaFile(h, S("x")), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(Svcpp_ClientCreateOptions_ExperimentalAudioSystem(h), 0);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientCreateOptions_ExperimentalAudioSystem");
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetExperimentalAudioSystem(h, Svcpp_AudioSystem_Game),
               Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_ClientCreateOptions_ExperimentalAndroidPreventCommsForBluetooth(h));
    CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientCreateOptions_ExperimentalAndroidPreventCommsForBluetooth");
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetExperimentalAndroidPreventCommsForBluetooth(h, true),
               Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_ClientCreateOptions_CpuAffinityMask(h, &mask));
    CHECK_EQ_INT(mask, 77);
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetCpuAffinityMask(h, &mask), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_ClientCreateOptions_SetCpuAffinityMask(h, NULL), Svcpp_Errc_InvalidHandle);
    if (h) {
        CHECK_ERRC(Svcpp_ClientCreateOptions_Clone(&clone, h), Svcpp_Errc_InvalidHandle);
        CHECK(clone.opaque == sentinelOpaque);
    }
}

/* Every ClientResult function on an invalid self. */
static void SweepResult(Svcpp_ClientResult *h) {
    Svcpp_String s = SENTINEL_STRING;
    CHECK(!Svcpp_ClientResult_IsValid(h));
    CHECK_EQ_INT(Svcpp_ClientResult_Type(h), 0);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientResult_Type");
    CHECK_ERRC(Svcpp_ClientResult_SetType(h, Svcpp_ErrorType_HTTPError), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_ClientResult_Error(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_ClientResult_SetError(h, S("e")), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(Svcpp_ClientResult_ErrorCode(h), 0);
    CHECK_ERRC(Svcpp_ClientResult_SetErrorCode(h, 5), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(Svcpp_ClientResult_Status(h), 0);
    CHECK_ERRC(Svcpp_ClientResult_SetStatus(h, Svcpp_HttpStatusCode_NotFound), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_ClientResult_ResponseBody(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_ClientResult_SetResponseBody(h, S("{}")), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_ClientResult_Retryable(h));
    CHECK_ERRC(Svcpp_ClientResult_SetRetryable(h, true), Svcpp_Errc_InvalidHandle);
    CHECK(Svcpp_ClientResult_RetryAfter(h) == 0.0f);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientResult_RetryAfter");
    CHECK_ERRC(Svcpp_ClientResult_SetRetryAfter(h, 1.5f), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_ClientResult_Successful(h));
    CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientResult_Successful");
    CHECK_ERRC(Svcpp_ClientResult_ToString(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
}

static void SweepChallenge(Svcpp_AuthorizationCodeChallenge *h) {
    Svcpp_String s = SENTINEL_STRING;
    CHECK(!Svcpp_AuthorizationCodeChallenge_IsValid(h));
    CHECK_EQ_INT(Svcpp_AuthorizationCodeChallenge_Method(h), 0);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_AuthorizationCodeChallenge_Method");
    CHECK_ERRC(Svcpp_AuthorizationCodeChallenge_SetMethod(h, Svcpp_AuthenticationCodeChallengeMethod_S256),
               Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_AuthorizationCodeChallenge_Challenge(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_AuthorizationCodeChallenge_SetChallenge(h, S("abc")), Svcpp_Errc_InvalidHandle);
}

static void SweepVerifier(Svcpp_AuthorizationCodeVerifier *h) {
    Svcpp_String s = SENTINEL_STRING;
    Svcpp_AuthorizationCodeChallenge c = {sentinelOpaque};
    Svcpp_AuthorizationCodeChallenge good = {NULL};
    CHECK(!Svcpp_AuthorizationCodeVerifier_IsValid(h));
    CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_Challenge(h, &c), Svcpp_Errc_InvalidHandle);
    CHECK(c.opaque == sentinelOpaque);
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Init(&good));
    CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_SetChallenge(h, &good), Svcpp_Errc_InvalidHandle);
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&good));
    CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_Verifier(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_SetVerifier(h, S("v")), Svcpp_Errc_InvalidHandle);
}

static void SweepArgs(Svcpp_AuthorizationArgs *h) {
    Svcpp_String s = SENTINEL_STRING;
    Svcpp_String in = S("x");
    Svcpp_AuthorizationCodeChallenge c = {sentinelOpaque};
    Svcpp_IntegrationType it = (Svcpp_IntegrationType)42;
    Svcpp_IntegrationType user = Svcpp_IntegrationType_UserInstall;
    CHECK(!Svcpp_AuthorizationArgs_IsValid(h));
    CHECK_EQ_INT(Svcpp_AuthorizationArgs_ClientId(h), 0);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_AuthorizationArgs_ClientId");
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetClientId(h, 9), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_AuthorizationArgs_Scopes(h, &s), Svcpp_Errc_InvalidHandle);
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetScopes(h, in), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_AuthorizationArgs_State(h, &s));
    CHECK_UNTOUCHED_STRING(s);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_AuthorizationArgs_State");
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetState(h, &in), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetState(h, NULL), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_AuthorizationArgs_Nonce(h, &s));
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetNonce(h, &in), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_AuthorizationArgs_CodeChallenge(h, &c));
    CHECK(c.opaque == sentinelOpaque);
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetCodeChallenge(h, NULL), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_AuthorizationArgs_IntegrationType(h, &it));
    CHECK_EQ_INT(it, 42);
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetIntegrationType(h, &user), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_AuthorizationArgs_CustomSchemeParam(h, &s));
    CHECK_UNTOUCHED_STRING(s);
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetCustomSchemeParam(h, &in), Svcpp_Errc_InvalidHandle);
}

static Counter sweepCounter;
static void SVCPP_CALL NeverLog(Svcpp_String m, Svcpp_LoggingSeverity s, void *ud) {
    (void)m;
    (void)s;
    ((Counter *)ud)->calls++;
}
static void SVCPP_CALL NeverStatus(Svcpp_Client_Status s, Svcpp_Client_Error e, int32_t d, void *ud) {
    (void)s;
    (void)e;
    (void)d;
    ((Counter *)ud)->calls++;
}
static void SVCPP_CALL NeverHook(void *ud) { ((Counter *)ud)->calls++; }

/* Every Client method on an invalid self: rejected, nothing taken (userDataFree never called). */
static void SweepClient(Svcpp_Client *h) {
    uint64_t token = 4242;
    Svcpp_AuthorizationCodeVerifier v = {sentinelOpaque};
    CHECK(!Svcpp_Client_IsValid(h));
    CHECK_EQ_INT(Svcpp_Client_GetApplicationId(h), 0);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_GetApplicationId");
    CHECK_ERRC(Svcpp_Client_SetApplicationId(h, 1), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(Svcpp_Client_GetHttpRequestTimeout(h), 0);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_GetHttpRequestTimeout");
    CHECK_ERRC(Svcpp_Client_SetHttpRequestTimeout(h, 1000), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(Svcpp_Client_GetStatus(h), Svcpp_Client_Status_Disconnected);
    CHECK_ERRC(Svcpp_Client_SetStatusChangedCallback(h, NeverStatus, CountFree, &sweepCounter),
               Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(
        Svcpp_Client_AddLogCallback(h, Svcpp_LoggingSeverity_Verbose, NeverLog, CountFree, &sweepCounter, &token),
        Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(token, 4242);
    CHECK_ERRC(Svcpp_Client_RemoveCallback(h, 1), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_CreateAuthorizationCodeVerifier(h, &v), Svcpp_Errc_InvalidHandle);
    CHECK(v.opaque == sentinelOpaque);
    CHECK_ERRC(Svcpp_Client_RunCallbacks(h), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_Client_HasPendingCallbacks(h));
    CHECK_ERRC(Svcpp_Client_SetCallbacksPendingHook(h, NeverHook, CountFree, &sweepCounter), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(sweepCounter.calls, 0);
    CHECK_EQ_INT(sweepCounter.frees, 0);
}

int main(void) {
    memset(garbage, 0xAB, sizeof garbage);

    /* ---- value types: NULL self, zeroed, stale copy, wrong type, garbage -------------------------- */
    {
        Svcpp_ClientCreateOptions opts = {NULL}, stale, wrongO, garbO;
        Svcpp_ClientResult res = {NULL}, staleR, wrongR, garbR;
        Svcpp_AuthorizationCodeChallenge ch = {NULL}, staleC, wrongC, garbC;
        Svcpp_AuthorizationCodeVerifier wrongV, garbV, zeroV = {NULL};
        Svcpp_AuthorizationArgs args = {NULL}, staleA, wrongA, garbA, zeroA = {NULL};
        Svcpp_ClientCreateOptions zeroO = {NULL};
        Svcpp_ClientResult zeroR = {NULL};
        Svcpp_AuthorizationCodeChallenge zeroC = {NULL};
        int onStack = 0;

        SweepOptions(NULL);
        SweepOptions(&zeroO);
        SweepResult(NULL);
        SweepResult(&zeroR);
        SweepChallenge(NULL);
        SweepChallenge(&zeroC);
        SweepVerifier(NULL);
        SweepVerifier(&zeroV);
        SweepArgs(NULL);
        SweepArgs(&zeroA);

        /* Stale copies: the object was dropped through another copy. */
        CHECK_OK(Svcpp_ClientCreateOptions_Init(&opts));
        stale = opts;
        CHECK_OK(Svcpp_ClientCreateOptions_Drop(&opts));
        CHECK(opts.opaque == NULL);
        SweepOptions(&stale);
        CHECK_ERRC(Svcpp_ClientCreateOptions_Drop(&stale), Svcpp_Errc_InvalidHandle);

        CHECK_OK(Svcpp_ClientResult_Init(&res));
        staleR = res;
        CHECK_OK(Svcpp_ClientResult_Drop(&res));
        SweepResult(&staleR);
        CHECK_ERRC(Svcpp_ClientResult_Drop(&staleR), Svcpp_Errc_InvalidHandle);

        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Init(&ch));
        staleC = ch;
        CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&ch));
        SweepChallenge(&staleC);
        CHECK_ERRC(Svcpp_AuthorizationCodeChallenge_Drop(&staleC), Svcpp_Errc_InvalidHandle);

        CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
        staleA = args;
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
        SweepArgs(&staleA);
        CHECK_ERRC(Svcpp_AuthorizationArgs_Drop(&staleA), Svcpp_Errc_InvalidHandle);

        /* A stale copy stays invalid when new objects are created afterwards (the allocator is free to
         * reuse the dropped block; the handle value must not come back to life and alias a new object). */
        CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
        CHECK(!Svcpp_AuthorizationArgs_IsValid(&staleA));
        CHECK_ERRC(Svcpp_AuthorizationArgs_SetScopes(&staleA, S("alias")), Svcpp_Errc_InvalidHandle);
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));

        /* Wrong type: a live object of another type behind the handle (struct cast). Every function of
         * the wrong type rejects it, and a wrong-type Drop does not release the real object. */
        CHECK_OK(Svcpp_ClientCreateOptions_Init(&opts));
        CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
        wrongA.opaque = opts.opaque;
        wrongR.opaque = opts.opaque;
        wrongC.opaque = opts.opaque;
        wrongV.opaque = args.opaque;
        wrongO.opaque = args.opaque;
        SweepArgs(&wrongA);
        SweepResult(&wrongR);
        SweepChallenge(&wrongC);
        SweepVerifier(&wrongV);
        SweepOptions(&wrongO);
        CHECK_ERRC(Svcpp_AuthorizationArgs_Drop(&wrongA), Svcpp_Errc_InvalidHandle);
        CHECK_ERRC(Svcpp_ClientCreateOptions_Drop(&wrongO), Svcpp_Errc_InvalidHandle);
        CHECK(Svcpp_ClientCreateOptions_IsValid(&opts));
        CHECK(Svcpp_AuthorizationArgs_IsValid(&args));
        {
            Svcpp_String s = {NULL, 0};
            CHECK_OK(Svcpp_ClientCreateOptions_SetApiBase(&opts, S("http://still.alive")));
            CHECK_OK(Svcpp_ClientCreateOptions_ApiBase(&opts, &s));
            CHECK_STR_TAKE(s, "http://still.alive");
        }
        /* Clone from a wrong-type source. */
        {
            Svcpp_AuthorizationArgs target = {NULL};
            CHECK_ERRC(Svcpp_AuthorizationArgs_Clone(&target, &wrongA), Svcpp_Errc_InvalidHandle);
            CHECK(target.opaque == NULL);
        }
        CHECK_OK(Svcpp_ClientCreateOptions_Drop(&opts));
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));

        /* Garbage: pointers that were never handles (never dereferenced: every live object is registered). */
        garbO.opaque = garbage;
        garbR.opaque = garbage + 8;
        garbC.opaque = &onStack;
        garbV.opaque = garbage + 1;
        garbA.opaque = (void *)(uintptr_t)0x10;
        SweepOptions(&garbO);
        SweepResult(&garbR);
        SweepChallenge(&garbC);
        SweepVerifier(&garbV);
        SweepArgs(&garbA);
        CHECK_ERRC(Svcpp_ClientCreateOptions_Drop(&garbO), Svcpp_Errc_InvalidHandle);
        CHECK_ERRC(Svcpp_AuthorizationArgs_Drop(&garbA), Svcpp_Errc_InvalidHandle);
        for (onStack = 0; onStack < (int)sizeof garbage; onStack++) CHECK(garbage[onStack] == 0xAB);
    }

    /* ---- Init / Clone / Drop / IsValid rules ------------------------------------------------------- */
    {
        Svcpp_AuthorizationArgs a = {NULL}, b = {NULL};
        Svcpp_AuthorizationArgs zero = {NULL};
        CHECK_ERRC(Svcpp_AuthorizationArgs_Init(NULL), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_ClientCreateOptions_Init(NULL), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_ClientResult_Init(NULL), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_AuthorizationCodeChallenge_Init(NULL), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_Client_Init(NULL), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_Client_InitWithBases(NULL, S("http://a"), S("http://b")), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_AuthorizationArgs_Drop(NULL), Svcpp_Errc_InvalidHandle);
        CHECK_ERRC(Svcpp_Client_Drop(NULL), Svcpp_Errc_InvalidHandle);
        CHECK_ERRC(Svcpp_AuthorizationCodeVerifier_Drop(NULL), Svcpp_Errc_InvalidHandle);
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&zero));
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&zero));
        CHECK_OK(Svcpp_AuthorizationCodeVerifier_Drop((Svcpp_AuthorizationCodeVerifier *)&zero));
        CHECK_OK(Svcpp_Client_Drop((Svcpp_Client *)&zero));

        CHECK_OK(Svcpp_AuthorizationArgs_Init(&a));
        CHECK(a.opaque != NULL);
        CHECK(Svcpp_AuthorizationArgs_IsValid(&a));
        CHECK_ERRC(Svcpp_AuthorizationArgs_Clone(NULL, &a), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_AuthorizationArgs_Clone(&b, NULL), Svcpp_Errc_NullArgument);
        CHECK(b.opaque == NULL);
        CHECK_ERRC(Svcpp_AuthorizationArgs_Clone(&b, &zero), Svcpp_Errc_InvalidHandle);
        CHECK(b.opaque == NULL);
        CHECK_OK(Svcpp_AuthorizationArgs_Clone(&b, &a));
        CHECK(b.opaque != NULL && b.opaque != a.opaque);
        CHECK(Svcpp_AuthorizationArgs_IsValid(&b));
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&a));
        CHECK(a.opaque == NULL);
        CHECK(!Svcpp_AuthorizationArgs_IsValid(&a));
        CHECK(Svcpp_AuthorizationArgs_IsValid(&b));
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&a)); /* zeroed by the first Drop: idempotent */
        CHECK_OK(Svcpp_AuthorizationArgs_Drop(&b));
    }

    /* ---- Client: NULL, zeroed, stale, wrong type, garbage ------------------------------------------ */
    {
        Svcpp_Client c = {NULL}, stale, wrong, garb, zero = {NULL};
        Svcpp_ClientCreateOptions opts = {NULL};
        SweepClient(NULL);
        SweepClient(&zero);

        CHECK_OK(Svcpp_Client_Init(&c));
        CHECK(Svcpp_Client_IsValid(&c));
        stale = c;
        CHECK_OK(Svcpp_Client_Drop(&c));
        CHECK(c.opaque == NULL);
        SweepClient(&stale);
        CHECK_ERRC(Svcpp_Client_Drop(&stale), Svcpp_Errc_InvalidHandle);

        CHECK_OK(Svcpp_ClientCreateOptions_Init(&opts));
        wrong.opaque = opts.opaque;
        SweepClient(&wrong);
        CHECK_ERRC(Svcpp_Client_Drop(&wrong), Svcpp_Errc_InvalidHandle);
        CHECK(Svcpp_ClientCreateOptions_IsValid(&opts));

        /* And the other way round: a live client behind a value-type handle. */
        CHECK_OK(Svcpp_Client_Init(&c));
        {
            Svcpp_ClientCreateOptions notOptions;
            Svcpp_AuthorizationArgs notArgs;
            notOptions.opaque = c.opaque;
            notArgs.opaque = c.opaque;
            SweepOptions(&notOptions);
            SweepArgs(&notArgs);
            CHECK_ERRC(Svcpp_Client_InitWithOptions(&stale, (Svcpp_ClientCreateOptions *)&c), Svcpp_Errc_InvalidHandle);
            CHECK_ERRC(Svcpp_ClientCreateOptions_Drop(&notOptions), Svcpp_Errc_InvalidHandle);
        }
        CHECK(Svcpp_Client_IsValid(&c));
        CHECK_OK(Svcpp_Client_Drop(&c));

        garb.opaque = garbage;
        SweepClient(&garb);
        CHECK_ERRC(Svcpp_Client_Drop(&garb), Svcpp_Errc_InvalidHandle);

        /* InitWithOptions: NULL options is a NULL argument, a zeroed or dropped one an invalid handle;
         * a failing Init leaves *self as it was. */
        {
            Svcpp_Client d = {NULL};
            Svcpp_ClientCreateOptions zeroO = {NULL};
            CHECK_ERRC(Svcpp_Client_InitWithOptions(&d, NULL), Svcpp_Errc_NullArgument);
            CHECK(d.opaque == NULL);
            CHECK_ERRC(Svcpp_Client_InitWithOptions(&d, &zeroO), Svcpp_Errc_InvalidHandle);
            CHECK(d.opaque == NULL);
            CHECK_OK(Svcpp_Client_InitWithOptions(&d, &opts));
            CHECK(Svcpp_Client_IsValid(&d));
            CHECK_OK(Svcpp_Client_Drop(&d));
        }
        CHECK_OK(Svcpp_ClientCreateOptions_Drop(&opts));
    }
    CHECK_EQ_INT(sweepCounter.calls, 0);
    CHECK_EQ_INT(sweepCounter.frees, 0);
    puts("handles: ok");
    return 0;
}
