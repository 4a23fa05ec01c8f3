/*
 * The wakeup hook (single thread): edge-triggered on empty -> non-empty, coalesced until the next pump
 * starts, fired at registration when work is already queued, fired for work queued during a pump,
 * replaced / cleared / dropped registrations freed once and never called again. The global hook.
 */
#include "check.h"

static void SVCPP_CALL CountHook(void *ud) { ((Counter *)ud)->calls++; }

typedef struct DuringPump {
    Recorder rec;
    Svcpp_Client *client;
    Counter *hook;
    int hookCallsBefore, hookCallsAfter;
} DuringPump;

static void SVCPP_CALL QueueDuringPump(Svcpp_String m, Svcpp_LoggingSeverity s, void *ud) {
    DuringPump *d = (DuringPump *)ud;
    RecordLog(m, s, ud);
    if (d->rec.n != 1 || !IsTestLine(m)) return;
    d->hookCallsBefore = d->hook->calls;
    CHECK_OK(Svcpp_Client_SetApplicationId(d->client, 999));
    d->hookCallsAfter = d->hook->calls;
}

static void ClientHook(void) {
    Svcpp_Client client = {NULL};
    Counter hook = {0, 0}, second = {0, 0};
    Recorder rec;
    memset(&rec, 0, sizeof rec);
    CHECK_OK(Svcpp_Client_Init(&client));
    AddRecorder(&client, Svcpp_LoggingSeverity_Info, &rec);

    /* registering on an empty queue does not fire */
    CHECK(!Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, CountHook, CountFree, &hook));
    CHECK_EQ_INT(hook.calls, 0);

    /* empty -> non-empty fires once; more work before the next pump does not fire again */
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_EQ_INT(hook.calls, 1);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 2));
    CHECK_OK(Svcpp_Client_SetHttpRequestTimeout(&client, 10));
    CHECK_EQ_INT(hook.calls, 1);

    /* the pump re-arms it */
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(rec.n, 3);
    CHECK_EQ_INT(hook.calls, 1);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 3));
    CHECK_EQ_INT(hook.calls, 2);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 4));
    CHECK_EQ_INT(hook.calls, 2);

    /* "at most once until the next pump starts": a pump that found work re-arms even if more arrives */
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(rec.n, 5);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client)); /* empty pump */
    CHECK_EQ_INT(hook.calls, 2);

    /* registering while work is queued fires the new hook once, at once; the old one is freed once */
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 5));
    CHECK_EQ_INT(hook.calls, 3);
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, CountHook, CountFree, &second));
    CHECK_EQ_INT(hook.frees, 1);
    CHECK_EQ_INT(second.calls, 1);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 6));
    CHECK_EQ_INT(second.calls, 1);
    CHECK_EQ_INT(hook.calls, 3); /* never called after its registration ended */
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));

    /* clearing frees it and it never fires again */
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, NULL, NULL, NULL));
    CHECK_EQ_INT(second.frees, 1);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 7));
    CHECK_EQ_INT(second.calls, 1);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));

    /* Drop frees the current hook once and it is not called during teardown */
    {
        Counter third = {0, 0};
        CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, CountHook, CountFree, &third));
        CHECK_OK(Svcpp_Client_SetApplicationId(&client, 8));
        CHECK_EQ_INT(third.calls, 1);
        CHECK_OK(Svcpp_Client_Drop(&client));
        CHECK_EQ_INT(third.calls, 1);
        CHECK_EQ_INT(third.frees, 1);
    }
    CHECK_EQ_INT(hook.frees, 1);
    CHECK_EQ_INT(second.frees, 1);
    CHECK_EQ_INT(rec.c.frees, 1);
}

/* Work queued by a callback while the pump runs: the pump has started since the last wakeup, so the
 * hook fires (an event-loop host that pumps only when woken would otherwise never see that work). */
static void WorkQueuedDuringPump(void) {
    Svcpp_Client client = {NULL};
    Counter hook = {0, 0};
    DuringPump d;
    Svcpp_CallbackToken t = 0;
    memset(&d, 0, sizeof d);
    CHECK_OK(Svcpp_Client_Init(&client));
    d.client = &client;
    d.hook = &hook;
    CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, QueueDuringPump, CountFree, &d, &t));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, CountHook, CountFree, &hook));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_EQ_INT(hook.calls, 1);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(d.rec.n, 1);
    CHECK(Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_EQ_INT(d.hookCallsBefore, 1);
    CHECK_EQ_INT(d.hookCallsAfter, 2);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(d.rec.n, 2);
    CHECK_LINE(d.rec, 1, "application id set to 999");
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(hook.frees, 1);
    CHECK_EQ_INT(d.rec.c.frees, 1);
}

static void GlobalHook(void) {
    Svcpp_Client a = {NULL}, b = {NULL};
    Counter global = {0, 0}, replaced = {0, 0}, own = {0, 0};
    Recorder ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    CHECK_OK(Svcpp_Client_Init(&a));
    CHECK_OK(Svcpp_Client_Init(&b));
    AddRecorder(&a, Svcpp_LoggingSeverity_Info, &ra);
    AddRecorder(&b, Svcpp_LoggingSeverity_Info, &rb);
    CHECK_OK(Svcpp_SetCallbacksPendingHook(CountHook, CountFree, &replaced));
    CHECK_EQ_INT(replaced.calls, 0);
    CHECK_OK(Svcpp_SetCallbacksPendingHook(CountHook, CountFree, &global));
    CHECK_EQ_INT(replaced.frees, 1);
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&a, CountHook, CountFree, &own));

    /* fires whenever a client's own condition fires: once per client going empty -> non-empty */
    CHECK_OK(Svcpp_Client_SetApplicationId(&a, 1));
    CHECK_EQ_INT(global.calls, 1);
    CHECK_EQ_INT(own.calls, 1);
    CHECK_OK(Svcpp_Client_SetApplicationId(&a, 2));
    CHECK_EQ_INT(global.calls, 1);
    CHECK_OK(Svcpp_Client_SetApplicationId(&b, 3));
    CHECK_EQ_INT(global.calls, 2);
    CHECK_EQ_INT(own.calls, 1);
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK_EQ_INT(ra.n, 2);
    CHECK_EQ_INT(rb.n, 1);
    CHECK_OK(Svcpp_Client_SetApplicationId(&b, 4));
    CHECK_EQ_INT(global.calls, 3);
    CHECK_OK(Svcpp_RunCallbacks());

    /* registering while a client has work fires once at once */
    CHECK_OK(Svcpp_Client_SetApplicationId(&a, 5));
    CHECK_EQ_INT(global.calls, 4);
    CHECK_OK(Svcpp_SetCallbacksPendingHook(CountHook, CountFree, &replaced));
    CHECK_EQ_INT(global.frees, 1);
    CHECK_EQ_INT(replaced.calls, 1);
    CHECK_OK(Svcpp_RunCallbacks());

    /* clearing frees it; it is not called again */
    CHECK_OK(Svcpp_SetCallbacksPendingHook(NULL, NULL, NULL));
    CHECK_EQ_INT(replaced.frees, 2); /* the first registration and this one: once each */
    CHECK_OK(Svcpp_Client_SetApplicationId(&a, 6));
    CHECK_EQ_INT(replaced.calls, 1);
    CHECK_EQ_INT(global.calls, 4);
    CHECK_OK(Svcpp_Client_Drop(&a));
    CHECK_OK(Svcpp_Client_Drop(&b));
    CHECK_EQ_INT(own.frees, 1);
}

int main(void) {
    ClientHook();
    WorkQueuedDuringPump();
    GlobalHook();
    puts("hook: ok");
    return 0;
}
