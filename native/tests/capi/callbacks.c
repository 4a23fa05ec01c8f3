/*
 * Callback registrations: log callbacks (tokens, severity filter, text), RemoveCallback, the status
 * slot (replace / clear), rejected triples that are never invoked nor freed, userDataFree exactly once
 * per accepted registration, and Svcpp_ResetCallbacks across clients.
 */
#include "check.h"

static void SVCPP_CALL CountStatus(Svcpp_Client_Status s, Svcpp_Client_Error e, int32_t d, void *ud) {
    (void)s;
    (void)e;
    (void)d;
    ((Counter *)ud)->calls++;
}
static void SVCPP_CALL CountHook(void *ud) { ((Counter *)ud)->calls++; }
static void SVCPP_CALL CountLog(Svcpp_String m, Svcpp_LoggingSeverity s, void *ud) {
    (void)m;
    (void)s;
    ((Counter *)ud)->calls++;
}

static void LogCallbacks(void) {
    Svcpp_Client client = {NULL};
    Recorder verbose, info, warning, none;
    Svcpp_CallbackToken tVerbose, tInfo, tWarning, tNone;
    memset(&verbose, 0, sizeof verbose);
    memset(&info, 0, sizeof info);
    memset(&warning, 0, sizeof warning);
    memset(&none, 0, sizeof none);
    CHECK_OK(Svcpp_Client_Init(&client));
    tVerbose = AddRecorder(&client, Svcpp_LoggingSeverity_Verbose, &verbose);
    tInfo = AddRecorder(&client, Svcpp_LoggingSeverity_Info, &info);
    tWarning = AddRecorder(&client, Svcpp_LoggingSeverity_Warning, &warning);
    tNone = AddRecorder(&client, Svcpp_LoggingSeverity_None, &none);
    CHECK(tVerbose != tInfo && tVerbose != tWarning && tVerbose != tNone && tInfo != tWarning && tInfo != tNone &&
          tWarning != tNone);

    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 77));
    CHECK_OK(Svcpp_Client_SetHttpRequestTimeout(&client, 1500));
    /* Lines are queued, delivered only by the pump. */
    CHECK_EQ_INT(verbose.n, 0);
    CHECK_EQ_INT(info.n, 0);
    CHECK(Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));

    CHECK_EQ_INT(verbose.n, 2);
    CHECK_LINE(verbose, 0, "application id set to 77");
    CHECK_LINE(verbose, 1, "HTTP request timeout set to 1500 ms");
    CHECK_EQ_INT(verbose.severities[0], Svcpp_LoggingSeverity_Info);
    CHECK_EQ_INT(verbose.severities[1], Svcpp_LoggingSeverity_Info);
    CHECK_EQ_INT(info.n, 2);
    CHECK_LINE(info, 0, "application id set to 77");
    CHECK_EQ_INT(warning.n, 0);    /* Info lines are below Warning */
    CHECK_EQ_INT(none.c.calls, 0); /* None as a minimum receives nothing at all */

    /* RemoveCallback: frees at once, on this thread, exactly once; lines still queued for the removed
     * registration are not delivered to it. */
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 78));
    CHECK_OK(Svcpp_Client_RemoveCallback(&client, tInfo));
    CHECK_EQ_INT(info.c.frees, 1);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(info.n, 2);
    CHECK_EQ_INT(verbose.n, 3);
    CHECK_LINE(verbose, 2, "application id set to 78");
    CHECK_ERRC(Svcpp_Client_RemoveCallback(&client, tInfo), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_RemoveCallback");
    CHECK_ERRC(Svcpp_Client_RemoveCallback(&client, 0), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_RemoveCallback(&client, 0xFFFFFFFFFFFFull), Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(info.c.frees, 1);

    /* A token belongs to its client. */
    {
        Svcpp_Client other = {NULL};
        CHECK_OK(Svcpp_Client_Init(&other));
        CHECK(Svcpp_Client_RemoveCallback(&other, tVerbose) != Svcpp_Errc_Ok || verbose.c.frees == 1);
        CHECK_EQ_INT(verbose.c.frees, 0);
        CHECK_OK(Svcpp_Client_Drop(&other));
    }

    /* A NULL userDataFree is allowed. */
    {
        Counter plain = {0, 0};
        Svcpp_CallbackToken t = 0;
        CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, CountLog, NULL, &plain, &t));
        CHECK_OK(Svcpp_Client_SetApplicationId(&client, 79));
        CHECK_OK(Svcpp_Client_RunCallbacks(&client));
        CHECK(plain.calls >= 1);
        CHECK_OK(Svcpp_Client_RemoveCallback(&client, t));
    }

    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(verbose.c.frees, 1);
    CHECK_EQ_INT(info.c.frees, 1);
    CHECK_EQ_INT(warning.c.frees, 1);
    CHECK_EQ_INT(none.c.frees, 1);
}

/* Calls that return non-Ok took nothing: the callback never runs and userDataFree is never called. */
static void RejectedTriples(void) {
    Svcpp_Client client = {NULL};
    Counter rejected = {0, 0};
    Recorder witness;
    Svcpp_CallbackToken token = 555;
    memset(&witness, 0, sizeof witness);
    CHECK_OK(Svcpp_Client_Init(&client));

    CHECK_ERRC(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, NULL, CountFree, &rejected, &token),
               Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, CountLog, CountFree, &rejected, NULL),
               Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_AddLogCallback(&client, (Svcpp_LoggingSeverity)0, CountLog, CountFree, &rejected, &token),
               Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_AddLogCallback(&client, (Svcpp_LoggingSeverity)6, CountLog, CountFree, &rejected, &token),
               Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(
        Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_forceint, CountLog, CountFree, &rejected, &token),
        Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(token, 555);
    CHECK_EQ_INT(rejected.frees, 0);

    /* Nullable slots: a NULL callback clears; its userData is not taken. */
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, NULL, CountFree, &rejected));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, NULL, CountFree, &rejected));
    CHECK_OK(Svcpp_SetCallbacksPendingHook(NULL, CountFree, &rejected));
    CHECK_EQ_INT(rejected.frees, 0);

    /* Nothing rejected ever runs: produce lines and pump. */
    AddRecorder(&client, Svcpp_LoggingSeverity_Verbose, &witness);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(witness.n, 1);
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_OK(Svcpp_ResetCallbacks());
    CHECK_EQ_INT(rejected.calls, 0);
    CHECK_EQ_INT(rejected.frees, 0);
    CHECK_EQ_INT(witness.c.frees, 1);
}

static void StatusSlot(void) {
    Svcpp_Client client = {NULL};
    Counter a = {0, 0}, b = {0, 0}, c = {0, 0}, d = {0, 0};
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, CountStatus, CountFree, &a));
    CHECK_EQ_INT(a.frees, 0);
    /* replacing frees the previous registration, once */
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, CountStatus, CountFree, &b));
    CHECK_EQ_INT(a.frees, 1);
    CHECK_EQ_INT(b.frees, 0);
    /* clearing frees it; the NULL call's own userData is not taken */
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, NULL, CountFree, &c));
    CHECK_EQ_INT(b.frees, 1);
    CHECK_EQ_INT(c.frees, 0);
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, NULL, NULL, NULL)); /* clearing an empty slot */
    /* the registration current at Drop is freed by Drop */
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, CountStatus, CountFree, &d));
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(d.frees, 1);
    CHECK_EQ_INT(a.frees, 1);
    CHECK_EQ_INT(b.frees, 1);
    CHECK_EQ_INT(c.frees, 0);
    /* no status change happens without Connect */
    CHECK_EQ_INT(a.calls + b.calls + c.calls + d.calls, 0);
}

static void ResetCallbacks(void) {
    Svcpp_Client one = {NULL}, two = {NULL};
    Recorder logOne, logTwo, after;
    Counter statusOne = {0, 0}, hookOne = {0, 0}, hookTwo = {0, 0}, globalHook = {0, 0};
    memset(&logOne, 0, sizeof logOne);
    memset(&logTwo, 0, sizeof logTwo);
    memset(&after, 0, sizeof after);
    CHECK_OK(Svcpp_Client_Init(&one));
    CHECK_OK(Svcpp_Client_Init(&two));
    AddRecorder(&one, Svcpp_LoggingSeverity_Verbose, &logOne);
    AddRecorder(&two, Svcpp_LoggingSeverity_Verbose, &logTwo);
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&one, CountStatus, CountFree, &statusOne));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&one, CountHook, CountFree, &hookOne));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&two, CountHook, CountFree, &hookTwo));
    CHECK_OK(Svcpp_SetCallbacksPendingHook(CountHook, CountFree, &globalHook));

    /* queued events at the time of the reset are discarded */
    CHECK_OK(Svcpp_Client_SetApplicationId(&one, 11));
    CHECK_OK(Svcpp_Client_SetApplicationId(&two, 22));
    CHECK_EQ_INT(hookOne.calls, 1);
    CHECK_EQ_INT(hookTwo.calls, 1);
    CHECK(globalHook.calls >= 1);
    CHECK_OK(Svcpp_ResetCallbacks());
    CHECK_EQ_INT(logOne.c.frees, 1);
    CHECK_EQ_INT(logTwo.c.frees, 1);
    CHECK_EQ_INT(statusOne.frees, 1);
    CHECK_EQ_INT(hookOne.frees, 1);
    CHECK_EQ_INT(hookTwo.frees, 1);
    CHECK_EQ_INT(globalHook.frees, 1);
    CHECK(!Svcpp_Client_HasPendingCallbacks(&one));
    CHECK(!Svcpp_Client_HasPendingCallbacks(&two));
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK_EQ_INT(logOne.n, 0);
    CHECK_EQ_INT(logTwo.n, 0);

    /* nothing registered before the reset runs again; the clients keep working with new registrations */
    {
        int hooksBefore = hookOne.calls + hookTwo.calls + globalHook.calls;
        AddRecorder(&one, Svcpp_LoggingSeverity_Verbose, &after);
        CHECK_OK(Svcpp_Client_SetApplicationId(&one, 12));
        CHECK_OK(Svcpp_Client_SetApplicationId(&two, 23));
        CHECK_OK(Svcpp_RunCallbacks());
        CHECK_EQ_INT(after.n, 1);
        CHECK_LINE(after, 0, "application id set to 12");
        CHECK_EQ_INT(logOne.n + logTwo.n, 0);
        CHECK_EQ_INT(hookOne.calls + hookTwo.calls + globalHook.calls, hooksBefore);
    }
    /* a second reset frees only what was registered since */
    CHECK_OK(Svcpp_ResetCallbacks());
    CHECK_EQ_INT(after.c.frees, 1);
    CHECK_EQ_INT(logOne.c.frees, 1);
    CHECK_OK(Svcpp_Client_Drop(&one));
    CHECK_OK(Svcpp_Client_Drop(&two));
    CHECK_EQ_INT(after.c.frees, 1);
    CHECK_EQ_INT(logOne.c.frees + logTwo.c.frees + statusOne.frees + hookOne.frees + hookTwo.frees + globalHook.frees,
                 6);
    CHECK_EQ_INT(statusOne.calls, 0);
}

int main(void) {
    LogCallbacks();
    RejectedTriples();
    StatusSlot();
    ResetCallbacks();
    puts("callbacks: ok");
    return 0;
}
