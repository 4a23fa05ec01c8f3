/*
 * The library functions for FFI hosts (native/SEMANTICS.md "Values", "Pump and hook"):
 * Svcpp_TakeStringInto copies an output string into the caller's buffer, frees it and zeroes it, and refuses misuse
 * without touching anything; Svcpp_Client_OpenWakeupFd hands out the read end of a pipe that gets a byte on each edge
 * the hook fires on (and at once when work is queued), and end-of-file once the client is dropped.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <unistd.h>

#include "check.h"

static void TakeStringInto(void) {
    Svcpp_AuthorizationArgs args = {0};
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&args, S("openid sdk")));
    Svcpp_String s = {0};
    CHECK_OK(Svcpp_AuthorizationArgs_Scopes(&args, &s));
    uint8_t buffer[16];
    memset(buffer, 0xAA, sizeof buffer);

    /* Misuse changes nothing: the string stays the caller's. */
    CHECK_ERRC(Svcpp_TakeStringInto(NULL, buffer, sizeof buffer), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_TakeStringInto(&s, NULL, 4), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_TakeStringInto(&s, buffer, 9), Svcpp_Errc_InvalidArgument); /* 10 bytes */
    CHECK_LAST_ERROR_MENTIONS("Svcpp_TakeStringInto");
    CHECK(s.ptr != NULL && s.size == 10);
    CHECK_EQ_INT(buffer[0], 0xAA);
    Svcpp_String bad = {NULL, 3};
    CHECK_ERRC(Svcpp_TakeStringInto(&bad, buffer, sizeof buffer), Svcpp_Errc_NullArgument);

    CHECK_OK(Svcpp_TakeStringInto(&s, buffer, 10));
    CHECK(memcmp(buffer, "openid sdk", 10) == 0);
    CHECK_EQ_INT(buffer[10], 0xAA);
    CHECK(s.ptr == NULL && s.size == 0); /* freed and zeroed */
    Svcpp_String empty = {0};
    CHECK_OK(Svcpp_TakeStringInto(&empty, NULL, 0));
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
}

/* Bytes readable on the non-blocking wakeup descriptor right now (0 with EAGAIN: none; -1 never expected). */
static int Drain(int fd) {
    char bytes[64];
    int total = 0;
    for (;;) {
        ssize_t n = read(fd, bytes, sizeof bytes);
        if (n > 0) {
            total += (int)n;
            continue;
        }
        if (n == 0) return total == 0 ? -2 : total; /* end of file */
        CHECK(errno == EAGAIN || errno == EWOULDBLOCK);
        return total;
    }
}

static void WakeupFd(void) {
    Svcpp_Client client = {NULL};
    Recorder rec;
    memset(&rec, 0, sizeof rec);
    CHECK_OK(Svcpp_Client_Init(&client));
    AddRecorder(&client, Svcpp_LoggingSeverity_Info, &rec);
    int32_t fd = -7;
    CHECK_ERRC(Svcpp_Client_OpenWakeupFd(&client, NULL), Svcpp_Errc_NullArgument);

    /* Queued before the descriptor was opened: it is readable at once. */
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 1));
    CHECK_OK(Svcpp_Client_OpenWakeupFd(&client, &fd));
    CHECK(fd >= 0);
    CHECK(Drain(fd) >= 1);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(Drain(fd), 0); /* idle: nothing to read */

    /* empty -> non-empty writes one byte; more work before the next pump writes none */
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 2));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 3));
    CHECK_EQ_INT(Drain(fd), 1);
    CHECK_OK(Svcpp_Client_RunCallbacks(&client));
    CHECK_EQ_INT(rec.n, 3);
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 4)); /* the pump re-armed it */
    CHECK_EQ_INT(Drain(fd), 1);

    /* A new descriptor replaces the old one, whose reader sees end-of-file. */
    int32_t second = -7;
    CHECK_OK(Svcpp_Client_OpenWakeupFd(&client, &second));
    CHECK_EQ_INT(Drain(fd), -2);
    close(fd);
    CHECK(Drain(second) >= 1); /* work was queued when it was opened */

    /* Dropping the client closes the write end: end-of-file; a dropped client is refused. */
    Svcpp_Client stale = client;
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(Drain(second), -2);
    close(second);
    fd = -7;
    CHECK_ERRC(Svcpp_Client_OpenWakeupFd(&stale, &fd), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_OpenWakeupFd(&client, &fd), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(fd, -7);
}

int main(void) {
    TakeStringInto();
    WakeupFd();
    return 0;
}
