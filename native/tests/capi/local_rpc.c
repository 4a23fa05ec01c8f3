/*
 * The local platform client at the C ABI (native/SEMANTICS.md "Local RPC").
 *  - Bad input: zero ids, an over-long or invalid UTF-8 launch command, NULL callbacks, a dropped client — each
 *    rejected synchronously, nothing registered, the user data stays the caller's.
 *  - Without a local client (IpcPath names a socket nobody listens on): the calls that need one complete with
 *    RPCError (retryable); the kept ones (SetShowingChat, launch registrations) succeed.
 *  - With a minimal local client on a real Unix socket (a named pipe on Windows: support/local_endpoint.h) in this
 *    process (a thread speaking the frame format): the
 *    handshake names the application, READY is followed by the subscriptions of the registered callbacks and the
 *    replayed registrations, ACTIVITY_JOIN and AUTHORIZE_REQUEST reach the callbacks through the pump, a command is
 *    answered by nonce, and after the local client drops the connection the SDK reconnects and subscribes again.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "pump_until.h"
#include "support/local_endpoint.h"

typedef struct {
    Counter c; /* first member: CountFree works on a Seen */
    Svcpp_ErrorType type;
    int retryable;
    int merges;
} Seen;

static void SVCPP_CALL OnResult(Svcpp_ClientResult const *result, void *userData) {
    Seen *seen = (Seen *)userData;
    seen->type = Svcpp_ClientResult_Type(result);
    seen->retryable = Svcpp_ClientResult_Retryable(result);
    seen->c.calls++;
}

static void SVCPP_CALL OnMerge(void *userData) { ((Seen *)userData)->merges++; }

static void ClientWithIpcPath(Svcpp_Client *client, const char *path) {
    Svcpp_ClientCreateOptions options = {NULL};
    CHECK_OK(Svcpp_ClientCreateOptions_Init(&options));
    CHECK_OK(Svcpp_ClientCreateOptions_SetIpcPath(&options, S(path)));
    CHECK_OK(Svcpp_Client_InitWithOptions(client, &options));
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&options));
}

static void BadInput(void) {
    Svcpp_Client client = {NULL};
    Seen seen = {{0, 0}, Svcpp_ErrorType_None, 0, 0};
    static char longText[1100];
    memset(longText, 'x', sizeof longText);
    ClientWithIpcPath(&client, "/nonexistent-svcpp-dir/discord-ipc-0");

    CHECK_ERRC(Svcpp_Client_RegisterLaunchCommand(&client, 0, S("/opt/game")), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("applicationId");
    CHECK_ERRC(Svcpp_Client_RegisterLaunchCommand(&client, 42, SN(longText, 1025)), Svcpp_Errc_InvalidArgument);
    CHECK_OK(Svcpp_Client_RegisterLaunchCommand(&client, 42, SN(longText, 1024)));
    CHECK_ERRC(Svcpp_Client_RegisterLaunchCommand(&client, 42, SN("\xff\xfe", 2)), Svcpp_Errc_InvalidUtf8);
    CHECK_ERRC(Svcpp_Client_RegisterLaunchSteamApplication(&client, 0, 480), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_RegisterLaunchSteamApplication(&client, 42, 0), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("steamAppId");

    /* Non-nullable callbacks: NULL is a NULL argument and nothing is taken (no free, no call). */
    CHECK_ERRC(Svcpp_Client_OpenMessageInPlatform(&client, 1, OnMerge, CountFree, &seen, NULL, CountFree, &seen),
               Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_OpenMessageInPlatform(&client, 1, NULL, CountFree, &seen, OnResult, CountFree, &seen),
               Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_OpenConnectedGamesSettingsInPlatform(&client, NULL, CountFree, &seen),
               Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Client_RegisterAuthorizeRequestCallback(&client, NULL, CountFree, &seen), Svcpp_Errc_NullArgument);
    CHECK_EQ_INT(seen.c.frees, 0);

    /* messageId 0: ValidationError through the pump; the merge callback does not run, both registrations end. */
    CHECK_OK(Svcpp_Client_OpenMessageInPlatform(&client, 0, OnMerge, CountFree, &seen, OnResult, CountFree, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ValidationError);
    CHECK_EQ_INT(seen.merges, 0);
    CHECK_EQ_INT(seen.c.frees, 2);

    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_ERRC(Svcpp_Client_SetShowingChat(&client, true), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_RegisterLaunchCommand(&client, 42, S("x")), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_OpenConnectedGamesSettingsInPlatform(&client, OnResult, CountFree, &seen),
               Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_SetShowingChat(NULL, true), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(seen.c.frees, 2);
}

static void WithoutLocalClient(void) {
    Svcpp_Client client = {NULL};
    Seen seen = {{0, 0}, Svcpp_ErrorType_None, 0, 0};
    ClientWithIpcPath(&client, "/nonexistent-svcpp-dir/discord-ipc-0");
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 42));

    CHECK_OK(Svcpp_Client_OpenConnectedGamesSettingsInPlatform(&client, OnResult, CountFree, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_RPCError);
    CHECK(seen.retryable);
    /* Not cached (no session): ValidationError before the local client is even asked. */
    seen.c.calls = 0;
    CHECK_OK(Svcpp_Client_OpenMessageInPlatform(&client, 7, OnMerge, CountFree, &seen, OnResult, CountFree, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ValidationError);

    /* Kept for later: no error now. */
    CHECK_OK(Svcpp_Client_SetShowingChat(&client, true));
    CHECK_OK(Svcpp_Client_RegisterLaunchCommand(&client, 42, S("")));
    CHECK_OK(Svcpp_Client_RegisterLaunchSteamApplication(&client, 43, 480));
    CHECK_OK(Svcpp_Client_SetActivityJoinCallback(&client, NULL, NULL, NULL));
    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_EQ_INT(seen.c.frees, 3);
}

/* ---- a minimal local client on a real Unix socket or named pipe ---- */

typedef struct {
    LocalEndpoint *endpoint;
    int connections; /* accepted so far */
    char seen[8192]; /* every FRAME/HANDSHAKE body received, one per line, in order (guarded by lock) */
    size_t seenSize;
    int serveMore; /* connections still to serve before the thread ends */
    pthread_mutex_t lock;
} FakeLocalClient;

static int ReadAll(LocalConnection fd, void *buffer, size_t size) {
    size_t done = 0;
    while (done < size) {
        long n = LocalConnection_Read(fd, (char *)buffer + done, size - done);
        if (n <= 0) return 0;
        done += (size_t)n;
    }
    return 1;
}

static void WriteFrame(LocalConnection fd, uint32_t opcode, const char *body) {
    unsigned char header[8];
    uint32_t length = (uint32_t)strlen(body);
    int i;
    for (i = 0; i < 4; i++) {
        header[i] = (unsigned char)(opcode >> (8 * i));
        header[4 + i] = (unsigned char)(length >> (8 * i));
    }
    CHECK(LocalConnection_Write(fd, header, 8));
    CHECK(LocalConnection_Write(fd, body, length));
}

/* Reads one frame; returns its opcode (or -1 at end of stream) and appends the body to the log. */
static int ReadFrame(FakeLocalClient *f, LocalConnection fd, char *body, size_t bodySize) {
    unsigned char header[8];
    uint32_t opcode = 0, length = 0;
    int i;
    if (!ReadAll(fd, header, 8)) return -1;
    for (i = 0; i < 4; i++) {
        opcode |= (uint32_t)header[i] << (8 * i);
        length |= (uint32_t)header[4 + i] << (8 * i);
    }
    CHECK(length < bodySize);
    if (!ReadAll(fd, body, length)) return -1;
    body[length] = '\0';
    pthread_mutex_lock(&f->lock);
    if (f->seenSize + length + 2 < sizeof f->seen) {
        memcpy(f->seen + f->seenSize, body, length);
        f->seenSize += length;
        f->seen[f->seenSize++] = '\n';
        f->seen[f->seenSize] = '\0';
    }
    pthread_mutex_unlock(&f->lock);
    return (int)opcode;
}

static int CountSeen(FakeLocalClient *f, const char *needle) {
    int count = 0;
    const char *p;
    pthread_mutex_lock(&f->lock);
    for (p = strstr(f->seen, needle); p; p = strstr(p + 1, needle)) count++;
    pthread_mutex_unlock(&f->lock);
    return count;
}

/*
 * Connection 1: handshake → READY; waits for the ACTIVITY_JOIN subscription, sends AUTHORIZE_REQUEST and
 * ACTIVITY_JOIN, answers OPEN_CONNECTED_GAMES_SETTINGS, then drops the connection.
 * Connection 2: handshake → READY; waits until the subscriptions came again, sends ACTIVITY_JOIN, then keeps reading
 * until the SDK closes.
 */
static void *Serve(void *arg) {
    FakeLocalClient *f = (FakeLocalClient *)arg;
    static char body[70000];
    char answer[256];
    while (f->serveMore > 0) {
        LocalConnection fd = LocalEndpoint_Accept(f->endpoint);
        int op;
        pthread_mutex_lock(&f->lock);
        f->connections++;
        pthread_mutex_unlock(&f->lock);
        CHECK_EQ_INT(ReadFrame(f, fd, body, sizeof body), 0); /* HANDSHAKE */
        CHECK(strstr(body, "\"client_id\":\"42\"") != NULL && strstr(body, "\"v\":1") != NULL);
        WriteFrame(fd, 1, "{\"cmd\":\"DISPATCH\",\"evt\":\"READY\",\"data\":{\"v\":1,\"user\":{\"id\":\"7\"}}}");
        while ((op = ReadFrame(f, fd, body, sizeof body)) >= 0) {
            if (strstr(body, "\"evt\":\"ACTIVITY_JOIN\"") && strstr(body, "\"cmd\":\"SUBSCRIBE\"")) {
                WriteFrame(fd, 3, "{\"ping\":1}"); /* answered with PONG */
                WriteFrame(fd, 1, "{\"cmd\":\"DISPATCH\",\"evt\":\"AUTHORIZE_REQUEST\",\"data\":{}}");
                WriteFrame(fd, 1,
                           "{\"cmd\":\"DISPATCH\",\"evt\":\"ACTIVITY_JOIN\",\"data\":{\"secret\":\"the-secret\"}}");
            }
            if (strstr(body, "OPEN_CONNECTED_GAMES_SETTINGS")) {
                const char *nonce = strstr(body, "\"nonce\":\"");
                CHECK(nonce != NULL);
                snprintf(answer, sizeof answer,
                         "{\"cmd\":\"OPEN_CONNECTED_GAMES_SETTINGS\",\"evt\":null,\"nonce\":\"%.*s\",\"data\":null}",
                         (int)strcspn(nonce + 9, "\""), nonce + 9);
                WriteFrame(fd, 1, answer);
                if (f->serveMore == 2) break; /* connection 1 ends here: the local client "restarts" */
            }
        }
        LocalConnection_Close(fd);
        f->serveMore--;
    }
    return NULL;
}

typedef struct {
    int authorizeRequests;
    int joins;
    int joinsWithApp;
    uint64_t appId;
    char secret[64];
} Events;

static void SVCPP_CALL OnAuthorizeRequest(void *userData) { ((Events *)userData)->authorizeRequests++; }

static void SVCPP_CALL OnJoin(Svcpp_String secret, void *userData) {
    Events *e = (Events *)userData;
    CHECK(secret.size < sizeof e->secret);
    memcpy(e->secret, secret.ptr, secret.size);
    e->secret[secret.size] = '\0';
    e->joins++;
}

static void SVCPP_CALL OnJoinWithApplication(uint64_t applicationId, Svcpp_String secret, void *userData) {
    Events *e = (Events *)userData;
    (void)secret;
    e->appId = applicationId;
    e->joinsWithApp++;
}

/* Pumps until the local client has received `needle` `count` times, or `*value` reached `target` (needle NULL). */
static void PumpUntilSeen(Svcpp_Client *client, FakeLocalClient *f, const char *needle, int count, const int *value,
                          int target) {
    int done = 0;
    struct timespec tick = {0, 2000000};
    int i;
    for (i = 0; i < 15000 && !done; i++) {
        CHECK_OK(Svcpp_Client_RunCallbacks(client));
        done = needle ? CountSeen(f, needle) >= count : *value >= target;
        if (!done) nanosleep(&tick, NULL);
    }
    CHECK(done);
}

static void WithFakeLocalClient(void) {
    FakeLocalClient f;
    char path[96];
    pthread_t thread;
    Svcpp_Client client = {NULL};
    Events events = {0, 0, 0, 0, ""};
    Seen seen = {{0, 0}, Svcpp_ErrorType_None, 0, 0};
    int joinsBefore;

    memset(&f, 0, sizeof f);
    pthread_mutex_init(&f.lock, NULL);
    f.serveMore = 2;
    f.endpoint = LocalEndpoint_Listen(path, sizeof path);
    CHECK(pthread_create(&thread, NULL, Serve, &f) == 0);

    ClientWithIpcPath(&client, path);
    CHECK_OK(Svcpp_Client_RegisterAuthorizeRequestCallback(&client, OnAuthorizeRequest, NULL, &events));
    CHECK_OK(Svcpp_Client_SetActivityJoinCallback(&client, OnJoin, NULL, &events));
    CHECK_OK(Svcpp_Client_SetActivityJoinWithApplicationCallback(&client, OnJoinWithApplication, NULL, &events));
    CHECK_OK(Svcpp_Client_SetShowingChat(&client, true));
    CHECK_OK(Svcpp_Client_RegisterLaunchSteamApplication(&client, 42, 480));
    CHECK_OK(Svcpp_Client_SetApplicationId(&client, 42)); /* connects */

    PumpUntil(&client, &events.joins);
    CHECK(strcmp(events.secret, "the-secret") == 0);
    PumpUntil(&client, &events.joinsWithApp);
    CHECK(events.appId == 42);
    PumpUntil(&client, &events.authorizeRequests);
    /* What followed READY: both subscriptions, the replayed registrations, and the PONG (its body). */
    PumpUntilSeen(&client, &f, "\"cmd\":\"SUBSCRIBE\",\"evt\":\"AUTHORIZE_REQUEST\"", 1, NULL, 0);
    PumpUntilSeen(&client, &f, "\"cmd\":\"SET_SHOWING_CHAT\"", 1, NULL, 0);
    PumpUntilSeen(&client, &f, "\"steam_app_id\":480", 1, NULL, 0);
    PumpUntilSeen(&client, &f, "{\"ping\":1}", 1, NULL, 0);

    /* A command answered by nonce; then the local client drops the connection. */
    CHECK_OK(Svcpp_Client_OpenConnectedGamesSettingsInPlatform(&client, OnResult, CountFree, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_None);

    /* The SDK reconnects by itself and subscribes and replays again; the join arrives on the new connection. */
    joinsBefore = events.joins;
    PumpUntilSeen(&client, &f, "\"client_id\":\"42\"", 2, NULL, 0);
    PumpUntilSeen(&client, &f, "\"steam_app_id\":480", 2, NULL, 0);
    PumpUntilSeen(&client, &f, NULL, 0, &events.joins, joinsBefore + 1);
    CHECK_EQ_INT(CountSeen(&f, "\"cmd\":\"SUBSCRIBE\",\"evt\":\"ACTIVITY_JOIN\""), 2);

    CHECK_OK(Svcpp_Client_Drop(&client)); /* closes the connection: the thread's read ends */
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_EQ_INT(f.connections, 2);
    LocalEndpoint_Close(f.endpoint);
    pthread_mutex_destroy(&f.lock);
}

int main(void) {
    BadInput();
    WithoutLocalClient();
    WithFakeLocalClient();
    printf("local_rpc: ok\n");
    return 0;
}
