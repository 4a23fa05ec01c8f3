/*
 * An event-loop host: several threads produce log lines while the main thread sleeps until the wakeup
 * hook fires (a byte written to a pipe, as a libuv/uv_async host would do) and then pumps. Every line is
 * delivered exactly once, only on the pumping thread, and no wakeup is lost. The last-error message is
 * thread-local.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include "check.h"

enum { kThreads = 4, kLinesPerThread = 250, kTotal = kThreads * kLinesPerThread };

static Svcpp_Client client;
static int wakePipe[2];
static pthread_t mainThread;
static unsigned char seen[kTotal];
static int delivered, offThread;
static Counter hookData;

/* Runs on whichever thread queued the work (or an SDK thread): must not block, must not call svcpp. */
static void SVCPP_CALL Wake(void *userData) {
    static const char byte = 1;
    ssize_t w;
    (void)userData;
    do w = write(wakePipe[1], &byte, 1);
    while (w < 0 && errno == EINTR);
    /* EAGAIN: the pipe is full of unread wakeups, which already guarantees a pump */
}

static void SVCPP_CALL OnLog(Svcpp_String message, Svcpp_LoggingSeverity severity, void *userData) {
    static const char prefix[] = "application id set to ";
    char digits[32];
    long id;
    (void)severity;
    (void)userData;
    if (!pthread_equal(pthread_self(), mainThread)) offThread++;
    if (message.size <= sizeof prefix - 1 || memcmp(message.ptr, prefix, sizeof prefix - 1) != 0) return;
    CHECK(message.size - (sizeof prefix - 1) < sizeof digits);
    memcpy(digits, message.ptr + sizeof prefix - 1, message.size - (sizeof prefix - 1));
    digits[message.size - (sizeof prefix - 1)] = '\0';
    id = strtol(digits, NULL, 10);
    CHECK(id >= 1 && id <= kTotal);
    CHECK(seen[id - 1] == 0);
    seen[id - 1] = 1;
    delivered++;
}

static void *Produce(void *arg) {
    int t = (int)(intptr_t)arg, i;
    Svcpp_AuthorizationArgs args = {NULL};
    for (i = 0; i < kLinesPerThread; i++)
        CHECK_OK(Svcpp_Client_SetApplicationId(&client, (uint64_t)(t * kLinesPerThread + i + 1)));
    /* this thread's last error is its own */
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
    CHECK_ERRC(Svcpp_AuthorizationArgs_SetScopes(&args, S("\xFF")), Svcpp_Errc_InvalidUtf8);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_AuthorizationArgs_SetScopes");
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
    return NULL;
}

int main(void) {
    pthread_t threads[kThreads];
    Svcpp_CallbackToken token = 0;
    int i;
    mainThread = pthread_self();
    CHECK(pipe(wakePipe) == 0);
    CHECK(fcntl(wakePipe[1], F_SETFL, O_NONBLOCK) == 0);

    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_AddLogCallback(&client, Svcpp_LoggingSeverity_Info, OnLog, NULL, NULL, &token));
    CHECK_OK(Svcpp_Client_SetCallbacksPendingHook(&client, Wake, CountFree, &hookData));
    /* the main thread's own last error, which the producers must not overwrite */
    CHECK_ERRC(Svcpp_Client_SetHttpRequestTimeout(&client, 0), Svcpp_Errc_InvalidArgument);

    for (i = 0; i < kThreads; i++) CHECK(pthread_create(&threads[i], NULL, Produce, (void *)(intptr_t)i) == 0);

    while (delivered < kTotal) {
        struct pollfd p;
        char buf[64];
        int r;
        p.fd = wakePipe[0];
        p.events = POLLIN;
        p.revents = 0;
        /* The 60 s bound only turns a lost wakeup into a failure instead of a hang; it is not a timing
         * expectation (a wakeup normally arrives within microseconds). */
        r = poll(&p, 1, 60000);
        if (r == 0) {
            fprintf(stderr, "lost wakeup: %d of %d lines delivered, HasPendingCallbacks=%d\n", delivered, kTotal,
                    (int)Svcpp_Client_HasPendingCallbacks(&client));
            return 1;
        }
        CHECK(r == 1);
        CHECK(read(wakePipe[0], buf, sizeof buf) > 0);
        CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    }
    for (i = 0; i < kThreads; i++) CHECK(pthread_join(threads[i], NULL) == 0);

    CHECK_EQ_INT(delivered, kTotal);
    for (i = 0; i < kTotal; i++) CHECK(seen[i] == 1);
    CHECK_EQ_INT(offThread, 0);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_SetHttpRequestTimeout");
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK(!Svcpp_Client_HasPendingCallbacks(&client));
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(hookData.frees, 1);
    CHECK_EQ_INT(delivered, kTotal);
    close(wakePipe[0]);
    close(wakePipe[1]);
    puts("hook_threads: ok");
    return 0;
}
