/*
 * Svcpp_Client_DrainEvents (native/SEMANTICS.md "Event records"): recorded events come back as records in the
 * caller's buffer, in queue order, and the records of one call precede the one host callback it may run (it returns
 * after it); a record that does not fit stays queued and the call reports its size; the argument, handle and pump
 * rules (NULL size or buffer, maxCallbacks 0, dropped client, nested / other-thread pump: Busy); a Drop inside a
 * completion run by a drain; outside a drain the same registration is called as usual; a replaced slot's record
 * names the registration current when it ran.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "check.h"

#define TRACE_MAX 64

/* What a test saw, in order: "log:<line>", "status:<n>", "url" (records and host callbacks alike). */
typedef struct Trace {
    char entries[TRACE_MAX][96];
    int n;
    char pendingHost[4][96]; /* host callbacks made during the current drain: appended after its records */
    int pendingN;
} Trace;

/* Tags whose addresses are the userData of the recorded registrations. */
static char statusTag, urlTag;

/* Calls of the recorded slots' C functions (their userData is a tag: see statusTag). */
static int hostCallsOutsideDrains;

static void Append(Trace *t, const char *entry) {
    CHECK(t->n < TRACE_MAX);
    snprintf(t->entries[t->n++], sizeof t->entries[0], "%s", entry);
}

static int StartsWith(Svcpp_String s, const char *prefix) {
    size_t n = strlen(prefix);
    return s.size >= n && memcmp(s.ptr, prefix, n) == 0;
}

/* Log lines are never recorded: a host callback, made inside the drain that runs it. */
static void SVCPP_CALL OnLog(Svcpp_String message, Svcpp_LoggingSeverity severity, void *userData) {
    Trace *t = (Trace *)userData;
    (void)severity;
    if (!StartsWith(message, "application id set to") && !StartsWith(message, "Connect: ") &&
        !StartsWith(message, "authorize: the host opens")) {
        return;
    }
    CHECK(t->pendingN < 4);
    snprintf(t->pendingHost[t->pendingN++], sizeof t->pendingHost[0], "log:%.*s",
             (int)(message.size > 60 ? 60 : message.size), (const char *)message.ptr);
}

/* The C functions of the recorded slots: only pumps other than a drain call them. */
static void SVCPP_CALL OnStatus(Svcpp_Client_Status status, Svcpp_Client_Error error, int32_t detail, void *userData) {
    (void)status, (void)error, (void)detail, (void)userData;
    hostCallsOutsideDrains++;
}

static void SVCPP_CALL OnUrl(Svcpp_String url, void *userData) {
    (void)url, (void)userData;
    hostCallsOutsideDrains++;
}

static void SVCPP_CALL OnAuthorized(Svcpp_ClientResult const *result, Svcpp_String code, Svcpp_String redirectUri,
                                    void *userData) {
    (void)result, (void)code, (void)redirectUri, (void)userData;
}

static uint32_t U32At(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static uint64_t U64At(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Decodes the records of buffer[0, size) into the trace, then the host callbacks the drain made. */
static void ReadRecords(Trace *t, const uint8_t *buffer, size_t size) {
    size_t at = 0;
    char entry[96];
    int i;
    while (at < size) {
        const uint32_t recordSize = U32At(buffer + at);
        const uint64_t userData = U64At(buffer + at + 8);
        CHECK(recordSize >= 16 && recordSize % 8 == 0 && at + recordSize <= size && at % 8 == 0);
        CHECK_EQ_INT(U32At(buffer + at + 4), 0);
        if (userData == (uint64_t)(uintptr_t)&statusTag) {
            /* Svcpp_Client_OnStatusChanged(status, error, errorDetail): three int32 */
            CHECK(recordSize == 32);
            snprintf(entry, sizeof entry, "status:%d", (int)U32At(buffer + at + 16));
        } else {
            /* Svcpp_Client_AuthorizeUrlCallback(url): uint32 byte count + bytes */
            const uint32_t length = U32At(buffer + at + 16);
            CHECK(userData == (uint64_t)(uintptr_t)&urlTag);
            CHECK(length > 0 && 20 + length <= recordSize);
            CHECK(StrContains(SN(buffer + at + 20, length), "/oauth2/authorize?"));
            snprintf(entry, sizeof entry, "url");
        }
        Append(t, entry);
        at += recordSize;
    }
    CHECK(at == size);
    CHECK(t->pendingN <= 1); /* a drain returns right after the job that called the host */
    for (i = 0; i < t->pendingN; i++) Append(t, t->pendingHost[i]);
    t->pendingN = 0;
}

static uint64_t bufferWords[4096]; /* 32 KiB, 8-byte aligned */
#define BUFFER ((uint8_t *)bufferWords)

static void Drain(Svcpp_Client *client, Trace *t) {
    size_t size = 0;
    CHECK_OK(Svcpp_Client_DrainEvents(client, 1024, BUFFER, sizeof bufferWords, &size));
    CHECK(size <= sizeof bufferWords);
    ReadRecords(t, BUFFER, size);
}

static int Sees(const Trace *t, const char *prefix) {
    int i;
    for (i = 0; i < t->n; i++)
        if (strncmp(t->entries[i], prefix, strlen(prefix)) == 0) return 1;
    return 0;
}

static void DrainUntil(Svcpp_Client *client, Trace *t, const char *prefix) {
    struct timespec tick = {0, 2000000};
    int i;
    for (i = 0; i < 15000 && !Sees(t, prefix); i++) {
        Drain(client, t);
        if (!Sees(t, prefix)) nanosleep(&tick, NULL);
    }
    CHECK(Sees(t, prefix));
}

/* Waits (without pumping) until the I/O thread has queued something. */
static void WaitPending(Svcpp_Client *client) {
    struct timespec tick = {0, 2000000};
    int i;
    for (i = 0; i < 15000 && !Svcpp_Client_HasPendingCallbacks(client); i++) nanosleep(&tick, NULL);
    CHECK(Svcpp_Client_HasPendingCallbacks(client));
}

static void CheckEntry(const Trace *t, int i, const char *want) {
    CHECK(i < t->n);
    if (strncmp(t->entries[i], want, strlen(want)) != 0) {
        fprintf(stderr, "entry %d is \"%s\", want \"%s...\"\n", i, t->entries[i], want);
        exit(1);
    }
}

static void StartAuthorize(Svcpp_Client *client) {
    Svcpp_AuthorizationArgs args = {NULL};
    Svcpp_String scheme = S("svcpp-test");
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
    CHECK_OK(Svcpp_AuthorizationArgs_SetClientId(&args, 7));
    CHECK_OK(Svcpp_AuthorizationArgs_SetCustomSchemeParam(&args, &scheme));
    CHECK_OK(Svcpp_Client_Authorize(client, &args, OnAuthorized, NULL, NULL));
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
}

static void Arguments(void) {
    Svcpp_Client client = {NULL}, zeroed = {NULL};
    size_t size = 99;
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_ERRC(Svcpp_Client_DrainEvents(&client, 16, BUFFER, 64, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_DrainEvents(&client, 16, NULL, 64, &size), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_DrainEvents(&client, 0, BUFFER, 64, &size), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("maxCallbacks");
    CHECK_ERRC(Svcpp_Client_DrainEvents(NULL, 16, BUFFER, 64, &size), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_DrainEvents(&zeroed, 16, BUFFER, 64, &size), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(size, 99);                                          /* untouched by a refused call */
    CHECK_OK(Svcpp_Client_DrainEvents(&client, 16, NULL, 0, &size)); /* an empty queue, no buffer: nothing */
    CHECK_EQ_INT(size, 0);
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_ERRC(Svcpp_Client_DrainEvents(&client, 16, BUFFER, 64, &size), Svcpp_Errc_InvalidHandle);
}

/* Host jobs and recorded events, queued in a known order, come back in that order across drains. */
static void Ordering(void) {
    Svcpp_Client client = {NULL};
    Svcpp_CallbackToken token = 0;
    static Trace t;
    memset(&t, 0, sizeof t);
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, OnLog, NULL, &t, &token));
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, OnStatus, NULL, &statusTag));
    CHECK_OK(Svcpp_Client_SetAuthorizeUrlCallback(&client, OnUrl, NULL, &urlTag));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 7)); /* a log line, queued now */
    CHECK_OK(Svcpp_Client_Connect(&client)); /* no token: "Connect: ..." then Disconnected, on the I/O thread */
    StartAuthorize(&client);                 /* then the authorize URL, then "authorize: the host opens ..." */
    DrainUntil(&client, &t, "log:authorize: the host opens");
    CHECK_EQ_INT(t.n, 5);
    CheckEntry(&t, 0, "log:application id set to 7");
    CheckEntry(&t, 1, "log:Connect: ");
    {
        char want[32];
        snprintf(want, sizeof want, "status:%d", (int)Svcpp_Client_Status_Disconnected);
        CheckEntry(&t, 2, want);
    }
    CheckEntry(&t, 3, "url");
    CheckEntry(&t, 4, "log:authorize: the host opens");
    CHECK_EQ_INT(hostCallsOutsideDrains, 0);

    /* Outside a drain the same registrations are called as usual. */
    CHECK_OK(Svcpp_Client_Connect(&client));
    while (hostCallsOutsideDrains == 0) {
        struct timespec tick = {0, 2000000};
        CHECK_OK(Svcpp_Client_RunCallbacks(&client));
        nanosleep(&tick, NULL);
    }
    CHECK_OK(Svcpp_Client_Drop(&client));
}

/* A record that does not fit stays queued; the call says how much it needs, and nothing ran. */
static void BufferTooSmall(void) {
    Svcpp_Client client = {NULL};
    static Trace t;
    size_t size = 0, needed = 0;
    memset(&t, 0, sizeof t);
    hostCallsOutsideDrains = 0;
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_SetAuthorizeUrlCallback(&client, OnUrl, NULL, &urlTag));
    StartAuthorize(&client);
    WaitPending(&client); /* the URL is the first job the Authorize queues */
    CHECK_OK(Svcpp_Client_DrainEvents(&client, 1024, BUFFER, 8, &size));
    CHECK(size > 8);
    needed = size;
    CHECK(Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_OK(Svcpp_Client_DrainEvents(&client, 1024, NULL, 0, &size)); /* no buffer at all: the same answer */
    CHECK_EQ_INT(size, needed);
    CHECK_OK(Svcpp_Client_DrainEvents(&client, 1024, BUFFER, needed - 1, &size));
    CHECK_EQ_INT(size, needed);
    CHECK_OK(Svcpp_Client_DrainEvents(&client, 1024, BUFFER, needed, &size));
    CHECK_EQ_INT(size, needed);
    CHECK_EQ_INT(U32At(BUFFER), needed);
    ReadRecords(&t, BUFFER, size);
    CHECK_EQ_INT(t.n, 1);
    CheckEntry(&t, 0, "url");
    CHECK_EQ_INT(hostCallsOutsideDrains, 0);
    CHECK_OK(Svcpp_Client_Drop(&client));
}

typedef struct Reenter {
    Svcpp_Client *client;
    Svcpp_Errc nested, global, otherThread;
    size_t nestedSize;
    int calls, dropInside;
} Reenter;

static void *DrainFromOtherThread(void *arg) {
    Reenter *r = (Reenter *)arg;
    size_t size = 0;
    r->otherThread = Svcpp_Client_DrainEvents(r->client, 16, BUFFER, 64, &size);
    return NULL;
}

/* A completion run by a drain: pumping again from inside is Busy (same thread, global, another thread). */
static void SVCPP_CALL OnMerge(void *userData) { (void)userData; }
static void SVCPP_CALL OnOpened(Svcpp_ClientResult const *result, void *userData) {
    Reenter *r = (Reenter *)userData;
    uint64_t local[8];
    pthread_t thread;
    (void)result;
    r->calls++;
    r->nested = Svcpp_Client_DrainEvents(r->client, 16, (uint8_t *)local, sizeof local, &r->nestedSize);
    r->global = Svcpp_RunCallbacks();
    CHECK(pthread_create(&thread, NULL, DrainFromOtherThread, r) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    if (r->dropInside) CHECK_OK(Svcpp_Client_Drop(r->client));
}

static void PumpingState(void) {
    Svcpp_Client client = {NULL};
    Reenter r;
    size_t size = 0;
    memset(&r, 0, sizeof r);
    r.client = &client;
    CHECK_OK(Svcpp_Client_Init(&client));
    /* messageId 0: a ValidationError completion, queued now */
    CHECK_OK(Svcpp_Client_OpenMessageInPlatform(&client, 0, OnMerge, NULL, NULL, OnOpened, NULL, &r));
    WaitPending(&client);
    /* (a drain also returns after a job that called nothing: drain until the completion has run) */
    while (r.calls == 0 && Svcpp_Client_HasPendingCallbacks(&client))
        CHECK_OK(Svcpp_Client_DrainEvents(&client, 16, BUFFER, sizeof bufferWords, &size));
    CHECK_EQ_INT(r.calls, 1);
    CHECK_EQ_INT(size, 0);
    CHECK_ERRC(r.nested, Svcpp_Errc_Busy);
    CHECK_ERRC(r.global, Svcpp_Errc_Busy);
    CHECK_ERRC(r.otherThread, Svcpp_Errc_Busy);
    CHECK(!Svcpp_Client_HasPendingCallbacks(&client));

    /* A Drop inside that completion: the handle is invalid at once, the drain still returns Ok. */
    r.dropInside = 1;
    CHECK_OK(Svcpp_Client_OpenMessageInPlatform(&client, 0, OnMerge, NULL, NULL, OnOpened, NULL, &r));
    WaitPending(&client);
    while (r.calls == 1 && Svcpp_Client_HasPendingCallbacks(&client))
        CHECK_OK(Svcpp_Client_DrainEvents(&client, 16, BUFFER, sizeof bufferWords, &size));
    CHECK_EQ_INT(r.calls, 2);
    CHECK(client.opaque == NULL);
    CHECK_ERRC(Svcpp_Client_DrainEvents(&client, 16, BUFFER, sizeof bufferWords, &size), Svcpp_Errc_InvalidHandle);
}

/* A record names the registration current when its job runs: an event queued before the slot was replaced
 * comes back with the new userData. */
static void ReplacedSlot(void) {
    Svcpp_Client client = {NULL};
    static Trace t;
    static char oldTag;
    size_t size = 0;
    memset(&t, 0, sizeof t);
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, OnStatus, NULL, &oldTag));
    CHECK_OK(Svcpp_Client_Connect(&client));
    WaitPending(&client);
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, OnStatus, NULL, &statusTag));
    while (t.n == 0) {
        struct timespec tick = {0, 2000000};
        CHECK_OK(Svcpp_Client_DrainEvents(&client, 1024, BUFFER, sizeof bufferWords, &size));
        ReadRecords(&t, BUFFER, size); /* fails on a record with any other userData */
        if (t.n == 0) nanosleep(&tick, NULL);
    }
    CHECK_OK(Svcpp_Client_Drop(&client));
}

int main(void) {
    Arguments();
    Ordering();
    BufferTooSmall();
    PumpingState();
    ReplacedSlot();
    return 0;
}
