/*
 * check.h — the assertion macros of the C ABI test programs in native/tests/capi.
 *
 * Each program is one ctest: the first failing CHECK prints file:line and the failed expression and
 * exits with status 1. Helpers build Svcpp_String inputs and read library output strings.
 */
#ifndef SVCPP_TESTS_CHECK_H
#define SVCPP_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svcpp.h"

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* An Svcpp_Errc comparison that prints both names. */
#define CHECK_ERRC(expr, expected)                                                                                    \
    do {                                                                                                              \
        Svcpp_Errc check_got_ = (expr);                                                                               \
        Svcpp_Errc check_want_ = (expected);                                                                          \
        if (check_got_ != check_want_) {                                                                              \
            fprintf(stderr, "%s:%d: CHECK_ERRC failed: %s\n  got %s (%d), want %s (%d)\n", __FILE__, __LINE__, #expr, \
                    Svcpp_ErrcName(check_got_), (int)check_got_, Svcpp_ErrcName(check_want_), (int)check_want_);      \
            exit(1);                                                                                                  \
        }                                                                                                             \
    } while (0)

#define CHECK_OK(expr) CHECK_ERRC(expr, Svcpp_Errc_Ok)

/* Compares an integer-valued expression and prints both values. */
#define CHECK_EQ_INT(expr, expected)                                                                              \
    do {                                                                                                          \
        long long check_got_ = (long long)(expr);                                                                 \
        long long check_want_ = (long long)(expected);                                                            \
        if (check_got_ != check_want_) {                                                                          \
            fprintf(stderr, "%s:%d: CHECK_EQ_INT failed: %s\n  got %lld, want %lld\n", __FILE__, __LINE__, #expr, \
                    check_got_, check_want_);                                                                     \
            exit(1);                                                                                              \
        }                                                                                                         \
    } while (0)

/* Compares a library output string (Svcpp_String) with a C string, then frees the output. */
#define CHECK_STR_TAKE(svcppString, cstr)                                                                           \
    do {                                                                                                            \
        Svcpp_String check_s_ = (svcppString);                                                                      \
        const char *check_want_ = (cstr);                                                                           \
        size_t check_n_ = strlen(check_want_);                                                                      \
        if (check_s_.size != check_n_ || (check_n_ && memcmp(check_s_.ptr, check_want_, check_n_))) {               \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s\n  got \"%.*s\", want \"%s\"\n", __FILE__, __LINE__,       \
                    #svcppString, (int)check_s_.size, check_s_.ptr ? (const char *)check_s_.ptr : "", check_want_); \
            exit(1);                                                                                                \
        }                                                                                                           \
        CHECK(check_s_.ptr != NULL && check_s_.ptr[check_s_.size] == '\0');                                         \
        Svcpp_Free(check_s_.ptr);                                                                                   \
    } while (0)

/* A borrowed input string over a C string literal or buffer. */
static inline Svcpp_String S(const char *s) {
    Svcpp_String r;
    r.ptr = (uint8_t *)s;
    r.size = strlen(s);
    return r;
}

/* A borrowed input string over n bytes (may contain NUL or invalid UTF-8). */
static inline Svcpp_String SN(const void *p, size_t n) {
    Svcpp_String r;
    r.ptr = (uint8_t *)p;
    r.size = n;
    return r;
}

/* True when the library output string equals cstr (does not free). */
static inline int StrEq(Svcpp_String s, const char *cstr) {
    size_t n = strlen(cstr);
    return s.size == n && (n == 0 || memcmp(s.ptr, cstr, n) == 0);
}

/* True when the library output string contains cstr (does not free). */
static inline int StrContains(Svcpp_String s, const char *cstr) {
    size_t n = strlen(cstr);
    size_t i;
    if (n == 0) return 1;
    for (i = 0; i + n <= s.size; i++)
        if (memcmp(s.ptr + i, cstr, n) == 0) return 1;
    return 0;
}

/* The thread's last error message; caller frees .ptr with Svcpp_Free. */
static inline Svcpp_String LastError(void) {
    Svcpp_String out = {NULL, 0};
    CHECK_OK(Svcpp_GetLastErrorMessage(&out));
    return out;
}

/* Asserts that the thread's last error message mentions `needle` (typically the function name). */
#define CHECK_LAST_ERROR_MENTIONS(needle)                                                               \
    do {                                                                                                \
        Svcpp_String check_e_ = LastError();                                                            \
        if (!StrContains(check_e_, (needle))) {                                                         \
            fprintf(stderr, "%s:%d: last error \"%.*s\" does not mention \"%s\"\n", __FILE__, __LINE__, \
                    (int)check_e_.size, check_e_.ptr ? (const char *)check_e_.ptr : "", (needle));      \
            exit(1);                                                                                    \
        }                                                                                               \
        Svcpp_Free(check_e_.ptr);                                                                       \
    } while (0)

/* userData of a registration in the tests: how often the callback ran and userDataFree was called. */
typedef struct Counter {
    int calls;
    int frees;
} Counter;

static inline void SVCPP_CALL CountFree(void *p) { ((Counter *)p)->frees++; }

/*
 * Records the log lines SEMANTICS.md defines ("application id set to <id>" from SetApplicationId,
 * "HTTP request timeout set to <ms> ms" from SetHttpRequestTimeout); other lines the core may log are
 * counted in c.calls only. Use as the userData of Svcpp_Client_AddLogCallback with RecordLog / CountFree.
 */
#define RECORDER_LINES 512
typedef struct Recorder {
    Counter c; /* first member: CountFree works on a Recorder */
    int n;
    char lines[RECORDER_LINES][64];
    Svcpp_LoggingSeverity severities[RECORDER_LINES];
} Recorder;

static inline int IsTestLine(Svcpp_String m) {
    static const char a[] = "application id set to ", b[] = "HTTP request timeout set to ";
    return (m.size >= sizeof a - 1 && memcmp(m.ptr, a, sizeof a - 1) == 0) ||
           (m.size >= sizeof b - 1 && memcmp(m.ptr, b, sizeof b - 1) == 0);
}

static inline void SVCPP_CALL RecordLog(Svcpp_String message, Svcpp_LoggingSeverity severity, void *userData) {
    Recorder *r = (Recorder *)userData;
    r->c.calls++;
    if (!IsTestLine(message)) return;
    CHECK(r->n < RECORDER_LINES && message.size < sizeof r->lines[0]);
    memcpy(r->lines[r->n], message.ptr, message.size);
    r->lines[r->n][message.size] = '\0';
    r->severities[r->n] = severity;
    r->n++;
}

/* Asserts that recorded line i is `text`. */
#define CHECK_LINE(rec, i, text)                                                                                       \
    do {                                                                                                               \
        CHECK((i) < (rec).n);                                                                                          \
        if (strcmp((rec).lines[(i)], (text)) != 0) {                                                                   \
            fprintf(stderr, "%s:%d: line %d is \"%s\", want \"%s\"\n", __FILE__, __LINE__, (int)(i), (rec).lines[(i)], \
                    (text));                                                                                           \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Registers r for every line at or above min; returns the token. */
static inline Svcpp_CallbackToken AddRecorder(Svcpp_Client *client, Svcpp_LoggingSeverity min, Recorder *r) {
    Svcpp_CallbackToken token = 0;
    CHECK_OK(Svcpp_Client_AddLogCallback(client, min, RecordLog, CountFree, r, &token));
    CHECK(token >= 1);
    return token;
}

#endif /* SVCPP_TESTS_CHECK_H */
