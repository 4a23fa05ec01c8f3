/*
 * The pump: callbacks run only inside RunCallbacks, in production order; a pump runs what was queued
 * when it started; nested or concurrent pumping of the same client is Busy; the global pump serves
 * every client; HasPendingCallbacks reflects the queue; RunCallbacksUpTo runs at most its bound, oldest first.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "check.h"

typedef struct Reentrant {
    Recorder rec; /* first member: RecordLog / CountFree work on it */
    Svcpp_Client *client;
    int done;
    Svcpp_Errc nestedClient, nestedGlobal, otherThread, setDuringPump;
    int pendingInside;
} Reentrant;

static void *PumpFromOtherThread(void *arg) {
    Reentrant *r = (Reentrant *)arg;
    r->otherThread = Svcpp_Client_RunCallbacks(r->client);
    return NULL;
}

/* On the first delivered line: try to pump again (same thread, global, other thread), queue new work. */
static void SVCPP_CALL Reenter(Svcpp_String message, Svcpp_LoggingSeverity severity, void *userData) {
    Reentrant *r = (Reentrant *)userData;
    RecordLog(message, severity, userData);
    if (r->done || !IsTestLine(message)) return;
    r->done = 1;
    r->nestedClient = Svcpp_Client_RunCallbacks(r->client);
    r->nestedGlobal = Svcpp_RunCallbacks();
    {
        pthread_t t;
        CHECK(pthread_create(&t, NULL, PumpFromOtherThread, r) == 0);
        CHECK(pthread_join(t, NULL) == 0);
    }
    r->setDuringPump = Svcpp_Client_SetApplicationId(r->client, 1000);
    r->pendingInside = Svcpp_Client_HasPendingCallbacks(r->client);
}

static void Ordering(void) {
    Svcpp_Client client = {NULL};
    Recorder rec;
    char want[64];
    int i;
    memset(&rec, 0, sizeof rec);
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_RunCallbacks(&client)); /* pumping an empty queue is fine */
    AddRecorder(&client, Svcpp_LoggingSeverity_Info, &rec);
    for (i = 1; i <= 100; i++) {
        if (i % 10 == 0)
            CHECK_OK(Svcpp_Client_SetHttpRequestTimeout(&client, i));
        else
            CHECK_OK(Svcpp_Client_SetApplicationId(&client, (uint64_t)i));
    }
    CHECK(Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_EQ_INT(rec.n, 0);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK(!Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_EQ_INT(rec.n, 100);
    for (i = 1; i <= 100; i++) {
        if (i % 10 == 0)
            sprintf(want, "HTTP request timeout set to %d ms", i);
        else
            sprintf(want, "application id set to %d", i);
        CHECK_LINE(rec, i - 1, want);
    }
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(rec.n, 100);
    CHECK_OK(Svcpp_Client_Drop(&client));
}

static void Reentrancy(void) {
    Svcpp_Client client = {NULL};
    Reentrant r;
    Svcpp_CallbackToken t = 0;
    memset(&r, 0, sizeof r);
    CHECK_OK(Svcpp_Client_Init(&client));
    r.client = &client;
    r.nestedClient = r.nestedGlobal = r.otherThread = r.setDuringPump = Svcpp_Errc_Internal;
    CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, Reenter, CountFree, &r, &t));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 2));
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));

    CHECK_ERRC(r.nestedClient, Svcpp_Errc_Busy);
    CHECK_ERRC(r.nestedGlobal, Svcpp_Errc_Busy);
    CHECK_ERRC(r.otherThread, Svcpp_Errc_Busy);
    CHECK_OK(r.setDuringPump);
    CHECK(r.pendingInside);
    /* This pump ran what was queued when it started (1 and 2), not the line queued meanwhile (1000). */
    CHECK_EQ_INT(r.rec.n, 2);
    CHECK_LINE(r.rec, 0, "application id set to 1");
    CHECK_LINE(r.rec, 1, "application id set to 2");
    CHECK(Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(r.rec.n, 3);
    CHECK_LINE(r.rec, 2, "application id set to 1000");
    CHECK(!Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_EQ_INT(r.rec.c.frees, 0);
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(r.rec.c.frees, 1);
}

/* Nested pump through the global entry point: a callback run by Svcpp_RunCallbacks pumps again. */
static void GlobalReentrancy(void) {
    Svcpp_Client client = {NULL};
    Reentrant r;
    Svcpp_CallbackToken t = 0;
    memset(&r, 0, sizeof r);
    CHECK_OK(Svcpp_Client_Init(&client));
    r.client = &client;
    CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, Reenter, CountFree, &r, &t));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 5));
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK_ERRC(r.nestedClient, Svcpp_Errc_Busy);
    CHECK_ERRC(r.nestedGlobal, Svcpp_Errc_Busy);
    CHECK_ERRC(r.otherThread, Svcpp_Errc_Busy);
    CHECK_EQ_INT(r.rec.n, 1);
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK_EQ_INT(r.rec.n, 2);
    CHECK_LINE(r.rec, 1, "application id set to 1000");
    CHECK_OK(Svcpp_Client_Drop(&client));
}

static void GlobalPump(void) {
    Svcpp_Client a = {NULL}, b = {NULL};
    Recorder ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    CHECK_OK(Svcpp_RunCallbacks()); /* nothing pending anywhere */
    CHECK_OK(Svcpp_Client_Init(&a));
    CHECK_OK(Svcpp_Client_Init(&b));
    AddRecorder(&a, Svcpp_LoggingSeverity_Info, &ra);
    AddRecorder(&b, Svcpp_LoggingSeverity_Info, &rb);
    CHECK_OK(Svcpp_Client_SetApplicationId(&a, 100));
    CHECK_OK(Svcpp_Client_SetApplicationId(&b, 200));
    CHECK_OK(Svcpp_Client_SetApplicationId(&a, 101));
    CHECK(Svcpp_Client_HasPendingCallbacks(&a));
    CHECK(Svcpp_Client_HasPendingCallbacks(&b));
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK(!Svcpp_Client_HasPendingCallbacks(&a));
    CHECK(!Svcpp_Client_HasPendingCallbacks(&b));
    CHECK_EQ_INT(ra.n, 2);
    CHECK_LINE(ra, 0, "application id set to 100");
    CHECK_LINE(ra, 1, "application id set to 101");
    CHECK_EQ_INT(rb.n, 1);
    CHECK_LINE(rb, 0, "application id set to 200");
    /* A client pump only serves its own client. */
    CHECK_OK(Svcpp_Client_SetApplicationId(&a, 102));
    CHECK_OK(Svcpp_Client_SetApplicationId(&b, 201));
    CHECK_OK(Svcpp_Client_RunCallbacks(&a));
    CHECK_EQ_INT(ra.n, 3);
    CHECK_EQ_INT(rb.n, 1);
    CHECK(Svcpp_Client_HasPendingCallbacks(&b));
    CHECK_OK(Svcpp_Client_Drop(&a));
    /* A dropped client no longer takes part in the global pump. */
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK_EQ_INT(rb.n, 2);
    CHECK_OK(Svcpp_Client_Drop(&b));
    CHECK_OK(Svcpp_RunCallbacks());
}

/* RunCallbacksUpTo: at most maxCallbacks, the oldest first; the rest stay queued ahead of later work; the hook does
 * not fire for what stays queued; 0, a NULL or dropped client are refused and nothing runs. */
static int hookFired;
static void SVCPP_CALL CountHook(void *userData) {
    (void)userData;
    hookFired += 1;
}

static void BoundedPump(void) {
    Svcpp_Client client = {NULL};
    Svcpp_Client stale = {NULL};
    Recorder rec;
    char want[64];
    int i;
    memset(&rec, 0, sizeof rec);
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_RunCallbacksUpTo(&client, 3)); /* an empty queue is fine */
    AddRecorder(&client, Svcpp_LoggingSeverity_Info, &rec);
    for (i = 1; i <= 5; i++) CHECK_OK(Svcpp_Client_SetApplicationId(&client, (uint64_t)i));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, CountHook, NULL, NULL));
    CHECK_EQ_INT(hookFired, 1); /* registered with work queued: announced once */

    CHECK_ERRC(Svcpp_Client_RunCallbacksUpTo(&client, 0), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_RunCallbacksUpTo(NULL, 1), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(rec.n, 0);

    CHECK_OK(Svcpp_Client_RunCallbacksUpTo(&client, 2));
    CHECK_EQ_INT(rec.n, 2);
    CHECK(Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 6)); /* queued behind the three left */
    CHECK_EQ_INT(hookFired, 1);                          /* the queue never went empty */
    CHECK_OK(Svcpp_Client_RunCallbacksUpTo(&client, 3));
    CHECK_EQ_INT(rec.n, 5);
    CHECK_OK(Svcpp_Client_RunCallbacksUpTo(&client, 100));
    CHECK_EQ_INT(rec.n, 6);
    for (i = 1; i <= 6; i++) {
        sprintf(want, "application id set to %d", i);
        CHECK_LINE(rec, i - 1, want);
    }
    CHECK(!Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 7)); /* empty -> non-empty: the hook fires again */
    CHECK_EQ_INT(hookFired, 2);

    stale = client;
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_ERRC(Svcpp_Client_RunCallbacksUpTo(&stale, 1), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_RunCallbacksUpTo(&client, 1), Svcpp_Errc_InvalidHandle);
}

int main(void) {
    Ordering();
    BoundedPump();
    Reentrancy();
    GlobalReentrancy();
    GlobalPump();
    puts("pump: ok");
    return 0;
}
