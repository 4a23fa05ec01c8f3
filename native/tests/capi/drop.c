/*
 * Client Drop with pending work: queued events are discarded, every registration's userData is freed
 * exactly once, the handle is zeroed. Drop inside one of the client's own callbacks takes effect for the
 * handle at once and finishes when the callback returns. Drop from another thread while the client is
 * being pumped is Busy.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "check.h"

static void SVCPP_CALL CountHook(void *ud) { ((Counter *)ud)->calls++; }
static void SVCPP_CALL CountStatus(Svcpp_Client_Status s, Svcpp_Client_Error e, int32_t d, void *ud) {
    (void)s;
    (void)e;
    (void)d;
    ((Counter *)ud)->calls++;
}

static void DropWithPending(void) {
    Svcpp_Client client = {NULL}, stale;
    Recorder a, b;
    Counter status = {0, 0}, hook = {0, 0};
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK_OK(Svcpp_Client_Init(&client));
    AddRecorder(&client, Svcpp_LoggingSeverity_Verbose, &a);
    AddRecorder(&client, Svcpp_LoggingSeverity_Info, &b);
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, CountStatus, CountFree, &status));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, CountHook, CountFree, &hook));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 2));
    CHECK(Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_EQ_INT(hook.calls, 1);
    stale = client;

    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK(client.opaque == NULL);
    /* events discarded: no log callback ran, not even during Drop */
    CHECK_EQ_INT(a.c.calls, 0);
    CHECK_EQ_INT(b.c.calls, 0);
    CHECK_EQ_INT(status.calls, 0);
    CHECK_EQ_INT(hook.calls, 1);
    /* every registration freed exactly once, before Drop returned */
    CHECK_EQ_INT(a.c.frees, 1);
    CHECK_EQ_INT(b.c.frees, 1);
    CHECK_EQ_INT(status.frees, 1);
    CHECK_EQ_INT(hook.frees, 1);
    /* the stale copy is dead; pumps find nothing of it */
    CHECK(!Svcpp_Client_IsValid(&stale));
    CHECK(!Svcpp_Client_HasPendingCallbacks(&stale));
    CHECK_ERRC(Svcpp_Client_RunCallbacks(&stale), Svcpp_Errc_InvalidHandle);
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK_OK(Svcpp_ResetCallbacks());
    CHECK_EQ_INT(a.c.calls + b.c.calls, 0);
    CHECK_EQ_INT(a.c.frees + b.c.frees + status.frees + hook.frees, 4);
}

typedef struct Dropper {
    Recorder rec;
    Svcpp_Client *client;
    Svcpp_Client copy;
    Recorder *other;
    Counter *hook;
    Svcpp_Errc dropResult, useAfter;
    int validAfter, zeroedAfter;
    int ownFreesInside, otherFreesInside, hookFreesInside;
} Dropper;

/* Drops the client from inside its own log callback, on the first line. */
static void SVCPP_CALL DropInside(Svcpp_String m, Svcpp_LoggingSeverity s, void *ud) {
    Dropper *d = (Dropper *)ud;
    RecordLog(m, s, ud);
    if (d->rec.n != 1 || !IsTestLine(m)) return;
    d->copy = *d->client;
    d->dropResult = Svcpp_Client_Drop(d->client);
    d->zeroedAfter = d->client->opaque == NULL;
    d->validAfter = Svcpp_Client_IsValid(&d->copy);
    d->useAfter = Svcpp_Client_SetApplicationId(&d->copy, 3);
    d->ownFreesInside = d->rec.c.frees;
    d->otherFreesInside = d->other->c.frees;
    d->hookFreesInside = d->hook->frees;
}

static void DropInsideCallback(int useGlobalPump) {
    Svcpp_Client client = {NULL};
    Dropper d;
    Recorder other;
    Counter hook = {0, 0};
    Svcpp_CallbackToken t = 0;
    memset(&d, 0, sizeof d);
    memset(&other, 0, sizeof other);
    CHECK_OK(Svcpp_Client_Init(&client));
    d.client = &client;
    d.other = &other;
    d.hook = &hook;
    d.dropResult = d.useAfter = Svcpp_Errc_Internal;
    CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, DropInside, CountFree, &d, &t));
    AddRecorder(&client, Svcpp_LoggingSeverity_Info, &other);
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, CountHook, CountFree, &hook));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 2));

    if (useGlobalPump)
        CHECK_OK(Svcpp_RunCallbacks());
    else
        CHECK_OK(Svcpp_Client_RunCallbacks(&client));

    /* inside the callback: Drop accepted, handle zeroed and invalid at once, nothing freed yet */
    CHECK_OK(d.dropResult);
    CHECK(d.zeroedAfter);
    CHECK(!d.validAfter);
    CHECK_ERRC(d.useAfter, Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(d.ownFreesInside, 0);
    CHECK_EQ_INT(d.otherFreesInside, 0);
    CHECK_EQ_INT(d.hookFreesInside, 0);
    /* after the pump: the first line was the last thing delivered to anyone */
    CHECK_EQ_INT(d.rec.n, 1);
    CHECK(other.n <= 1); /* the other registration may have seen line 1 (it precedes the drop)... */
    if (other.n == 1) CHECK_LINE(other, 0, "application id set to 1");
    /* ...and every registration is freed exactly once */
    CHECK_EQ_INT(d.rec.c.frees, 1);
    CHECK_EQ_INT(other.c.frees, 1);
    CHECK_EQ_INT(hook.frees, 1);
    CHECK(client.opaque == NULL);
    CHECK_OK(Svcpp_Client_Drop(&client)); /* zeroed: Ok */
    CHECK_ERRC(Svcpp_Client_Drop(&d.copy), Svcpp_Errc_InvalidHandle);
    CHECK_OK(Svcpp_RunCallbacks());
    CHECK_EQ_INT(d.rec.n, 1);
    CHECK(other.n <= 1);
    CHECK_EQ_INT(d.rec.c.frees + other.c.frees + hook.frees, 3);
}

typedef struct CrossThread {
    Recorder rec;
    Svcpp_Client *client;
    Svcpp_Errc fromOtherThread;
} CrossThread;

static void *DropOnOtherThread(void *arg) {
    CrossThread *c = (CrossThread *)arg;
    c->fromOtherThread = Svcpp_Client_Drop(c->client);
    return NULL;
}

static void SVCPP_CALL DropFromThreadInside(Svcpp_String m, Svcpp_LoggingSeverity s, void *ud) {
    CrossThread *c = (CrossThread *)ud;
    pthread_t t;
    RecordLog(m, s, ud);
    if (c->rec.n != 1 || !IsTestLine(m)) return;
    CHECK(pthread_create(&t, NULL, DropOnOtherThread, c) == 0);
    CHECK(pthread_join(t, NULL) == 0);
}

static void DropFromOtherThreadWhilePumping(void) {
    Svcpp_Client client = {NULL};
    CrossThread c;
    Svcpp_CallbackToken t = 0;
    memset(&c, 0, sizeof c);
    c.fromOtherThread = Svcpp_Errc_Internal;
    CHECK_OK(Svcpp_Client_Init(&client));
    c.client = &client;
    CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, DropFromThreadInside, CountFree, &c, &t));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 2));
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_ERRC(c.fromOtherThread, Svcpp_Errc_Busy);
    /* the rejected Drop changed nothing */
    CHECK(client.opaque != NULL);
    CHECK(Svcpp_Client_IsValid(&client));
    CHECK_EQ_INT(c.rec.n, 2);
    CHECK_EQ_INT(c.rec.c.frees, 0);
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(c.rec.c.frees, 1);
}

/* A client that is not being pumped can be dropped from any thread. */
static void *DropIdle(void *arg) {
    CHECK_OK(Svcpp_Client_Drop((Svcpp_Client *)arg));
    return NULL;
}

static void DropIdleFromOtherThread(void) {
    Svcpp_Client client = {NULL};
    Recorder rec;
    pthread_t t;
    memset(&rec, 0, sizeof rec);
    CHECK_OK(Svcpp_Client_Init(&client));
    AddRecorder(&client, Svcpp_LoggingSeverity_Info, &rec);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK(pthread_create(&t, NULL, DropIdle, &client) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(client.opaque == NULL);
    CHECK_EQ_INT(rec.c.calls, 0);
    CHECK_EQ_INT(rec.c.frees, 1);
}

int main(void) {
    DropWithPending();
    DropInsideCallback(0);
    DropInsideCallback(1);
    DropFromOtherThreadWhilePumping();
    DropIdleFromOtherThread();
    puts("drop: ok");
    return 0;
}
