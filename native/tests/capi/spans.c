/*
 * Spans (native/SEMANTICS.md "Spans"): Svcpp_<T>Span_Drop of NULL, zeroed and malformed spans; a span handed to a
 * callback is borrowed (its element handles die when the callback returns) and the elements it clones live on in a span
 * the caller owns and releases with _Drop (a rejected Drop changes nothing; elements adopted out of it are skipped).
 * GetUserGuilds / GetGuildChannels run against a loopback HTTP stub with canned JSON, so no platform is needed; the
 * stub also checks the Bearer token and the routes, and the channel answer checks the JSON mapping.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "pump_until.h"

/* ---- loopback HTTP stub ------------------------------------------------------------------------------ */

static const char kGuilds[] = "[{\"id\":\"111\",\"name\":\"Alpha\",\"owner\":true},{\"id\":\"222\",\"name\":\"Beta\"}]";
/* Out of order on purpose. 3088 = MANAGE_CHANNELS | VIEW_CHANNEL | SEND_MESSAGES; the category's @everyone
 * overwrite (role id = guild id 5) denies VIEW_CHANNEL. */
static const char kChannels[] =
    "[{\"id\":\"30\",\"type\":2,\"name\":\"voice\",\"position\":2,\"parent_id\":null,\"permissions\":\"3088\"},"
    "{\"id\":\"20\",\"type\":0,\"name\":\"general\",\"position\":1,\"parent_id\":\"10\",\"nsfw\":false,"
    "\"permissions\":\"3088\",\"permission_overwrites\":[]},"
    "{\"id\":\"10\",\"type\":4,\"name\":\"Text\",\"position\":0,\"parent_id\":null,\"permissions\":\"3088\","
    "\"permission_overwrites\":[{\"id\":\"5\",\"type\":0,\"allow\":\"0\",\"deny\":\"1024\"}]}]";
static const char kUnknownGuild[] = "{\"code\":10004,\"message\":\"Unknown Guild\"}";

static int listener = -1;
static int stubPort;

static void Answer(int fd, const char *status, const char *body) {
    char head[256];
    int n =
        snprintf(head, sizeof head,
                 "HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
                 status, strlen(body));
    CHECK(write(fd, head, (size_t)n) == n);
    CHECK(write(fd, body, strlen(body)) == (ssize_t)strlen(body));
}

static int StartsWith(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

/* One request per connection (GET, no body): routes by path, 401 without the test's Bearer token. */
static void Serve(int fd) {
    char request[4096];
    size_t used = 0;
    ssize_t got;
    request[0] = '\0';
    while (!strstr(request, "\r\n\r\n") && used < sizeof request - 1 &&
           (got = read(fd, request + used, sizeof request - 1 - used)) > 0) {
        used += (size_t)got;
        request[used] = '\0';
    }
    if (!strstr(request, "\r\nAuthorization: Bearer test-token\r\n"))
        Answer(fd, "401 Unauthorized", "{\"code\":0}");
    else if (StartsWith(request, "GET /api/v10/users/@me/guilds?limit=200 "))
        Answer(fd, "200 OK", kGuilds);
    else if (StartsWith(request, "GET /api/v10/guilds/5/channels "))
        Answer(fd, "200 OK", kChannels);
    else
        Answer(fd, "404 Not Found", kUnknownGuild);
}

static void *StubMain(void *unused) {
    int fd;
    (void)unused;
    while ((fd = accept(listener, NULL, NULL)) >= 0) {
        Serve(fd);
        close(fd);
    }
    return NULL;
}

static pthread_t StartStub(void) {
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    pthread_t thread;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    listener = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(listener >= 0);
    CHECK(bind(listener, (struct sockaddr *)&addr, sizeof addr) == 0);
    CHECK(listen(listener, 16) == 0);
    CHECK(getsockname(listener, (struct sockaddr *)&addr, &len) == 0);
    stubPort = ntohs(addr.sin_port);
    CHECK(pthread_create(&thread, NULL, StubMain, NULL) == 0);
    return thread;
}

static void StopStub(pthread_t thread) {
    shutdown(listener, SHUT_RDWR); /* accept fails: the stub thread ends */
    CHECK(pthread_join(thread, NULL) == 0);
    close(listener);
}

/* ---- helpers -------------------------------------------------------------------------------------------- */

static void SVCPP_CALL TokenUpdated(Svcpp_ClientResult const *result, void *userData) {
    CHECK(Svcpp_ClientResult_Successful(result));
    ((Counter *)userData)->calls++;
}

/* ---- Drop of spans that hold nothing --------------------------------------------------------------------- */

static void DropEmpty(void) {
    Svcpp_GuildMinimalSpan zeroed = {NULL, 0};
    Svcpp_GuildChannelSpan dangling = {NULL, 3};
    Svcpp_UserApplicationProfileHandleSpan profiles = {NULL, 0};
    CHECK_ERRC(Svcpp_GuildMinimalSpan_Drop(NULL), Svcpp_Errc_NullArgument);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_GuildMinimalSpan_Drop");
    CHECK_OK(Svcpp_GuildMinimalSpan_Drop(&zeroed));
    CHECK(zeroed.ptr == NULL && zeroed.size == 0);
    CHECK_ERRC(Svcpp_GuildChannelSpan_Drop(&dangling), Svcpp_Errc_NullArgument);
    CHECK_EQ_INT(dangling.size, 3);
    CHECK_OK(Svcpp_UserApplicationProfileHandleSpan_Drop(&profiles));
}

/* ---- GetUserGuilds: a borrowed span, cloned into an owned one ------------------------------------------- */

typedef struct GuildsSeen {
    int calls;
    Svcpp_ErrorType type;
    size_t size;
    Svcpp_GuildMinimal borrowed[2]; /* copies of the borrowed handles: dead once the callback returned */
    Svcpp_GuildMinimalSpan kept;    /* clones in a library-allocated buffer: the test's own span */
} GuildsSeen;

static void SVCPP_CALL OnGuilds(Svcpp_ClientResult const *result, Svcpp_GuildMinimalSpan guilds, void *userData) {
    GuildsSeen *seen = (GuildsSeen *)userData;
    size_t i;
    seen->calls++;
    seen->type = Svcpp_ClientResult_Type(result);
    seen->size = guilds.size;
    if (guilds.size == 0) {
        CHECK(guilds.ptr == NULL); /* the empty span is {NULL, 0} */
        return;
    }
    CHECK(guilds.size == 2);
    seen->kept.ptr = (Svcpp_GuildMinimal *)Svcpp_Alloc(sizeof *seen->kept.ptr * guilds.size);
    CHECK(seen->kept.ptr != NULL);
    seen->kept.size = guilds.size;
    for (i = 0; i < guilds.size; i++) {
        CHECK(Svcpp_GuildMinimal_IsValid(&guilds.ptr[i]));
        seen->borrowed[i] = guilds.ptr[i];
        seen->kept.ptr[i].opaque = NULL;
        CHECK_OK(Svcpp_GuildMinimal_Clone(&seen->kept.ptr[i], &guilds.ptr[i]));
    }
}

static void CheckGuild(Svcpp_GuildMinimal const *g, uint64_t id, const char *name) {
    Svcpp_String s = {NULL, 0};
    CHECK_EQ_INT(Svcpp_GuildMinimal_Id(g), id);
    CHECK_OK(Svcpp_GuildMinimal_Name(g, &s));
    CHECK_STR_TAKE(s, name);
}

static void UserGuilds(Svcpp_Client *client) {
    GuildsSeen seen;
    Svcpp_GuildMinimal stale, adopted;
    memset(&seen, 0, sizeof seen);
    CHECK_OK(Svcpp_Client_GetUserGuilds(client, OnGuilds, NULL, &seen));
    PumpUntil(client, &seen.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_None);
    CHECK_EQ_INT(seen.size, 2);

    /* Borrowed: the handles the callback saw are gone; the clones are the test's. */
    CHECK(!Svcpp_GuildMinimal_IsValid(&seen.borrowed[0]) && !Svcpp_GuildMinimal_IsValid(&seen.borrowed[1]));
    CHECK_ERRC(Svcpp_GuildMinimal_Drop(&seen.borrowed[0]), Svcpp_Errc_InvalidHandle);
    CheckGuild(&seen.kept.ptr[0], 111, "Alpha");
    CheckGuild(&seen.kept.ptr[1], 222, "Beta");

    /* A span holding a stale element is rejected as a whole: nothing is dropped or freed. */
    stale = seen.kept.ptr[1];
    seen.kept.ptr[1] = seen.borrowed[1];
    CHECK_ERRC(Svcpp_GuildMinimalSpan_Drop(&seen.kept), Svcpp_Errc_InvalidHandle);
    CHECK_LAST_ERROR_MENTIONS("span element 1");
    CHECK(seen.kept.ptr != NULL && seen.kept.size == 2);
    CHECK(Svcpp_GuildMinimal_IsValid(&seen.kept.ptr[0]));
    seen.kept.ptr[1] = stale;

    /* An element adopted out of the span (its slot zeroed) is skipped by Drop and stays the adopter's. */
    adopted = seen.kept.ptr[0];
    seen.kept.ptr[0].opaque = NULL;
    CHECK_OK(Svcpp_GuildMinimalSpan_Drop(&seen.kept));
    CHECK(seen.kept.ptr == NULL && seen.kept.size == 0);
    CHECK(!Svcpp_GuildMinimal_IsValid(&stale)); /* dropped with the span */
    CheckGuild(&adopted, 111, "Alpha");
    CHECK_OK(Svcpp_GuildMinimal_Drop(&adopted));
    CHECK_OK(Svcpp_GuildMinimalSpan_Drop(&seen.kept)); /* zeroed now: Ok */
}

/* ---- GetGuildChannels: sorted by position, the JSON mapping, an HTTP failure ---------------------------- */

typedef struct ChannelsSeen {
    int calls;
    Svcpp_ErrorType type;
    Svcpp_HttpStatusCode status;
    Svcpp_GuildChannelSpan kept;
} ChannelsSeen;

static void SVCPP_CALL OnChannels(Svcpp_ClientResult const *result, Svcpp_GuildChannelSpan channels, void *userData) {
    ChannelsSeen *seen = (ChannelsSeen *)userData;
    size_t i;
    seen->calls++;
    seen->type = Svcpp_ClientResult_Type(result);
    seen->status = Svcpp_ClientResult_Status(result);
    if (channels.size == 0) return;
    seen->kept.ptr = (Svcpp_GuildChannel *)Svcpp_Alloc(sizeof *seen->kept.ptr * channels.size);
    CHECK(seen->kept.ptr != NULL);
    seen->kept.size = channels.size;
    for (i = 0; i < channels.size; i++) CHECK_OK(Svcpp_GuildChannel_Clone(&seen->kept.ptr[i], &channels.ptr[i]));
}

static void CheckChannel(Svcpp_GuildChannel const *c, uint64_t id, const char *name, Svcpp_ChannelType type,
                         int32_t position, uint64_t parentId, bool linkable, bool everyone) {
    Svcpp_String s = {NULL, 0};
    Svcpp_LinkedLobby lobby = {NULL};
    uint64_t parent = 0;
    CHECK_EQ_INT(Svcpp_GuildChannel_Id(c), id);
    CHECK_OK(Svcpp_GuildChannel_Name(c, &s));
    CHECK_STR_TAKE(s, name);
    CHECK_EQ_INT(Svcpp_GuildChannel_Type(c), type);
    CHECK_EQ_INT(Svcpp_GuildChannel_Position(c), position);
    CHECK_EQ_INT(Svcpp_GuildChannel_ParentId(c, &parent), parentId != 0);
    CHECK_EQ_INT(parent, parentId);
    CHECK_EQ_INT(Svcpp_GuildChannel_IsLinkable(c), linkable);
    CHECK_EQ_INT(Svcpp_GuildChannel_IsViewableAndWriteableByAllMembers(c), everyone);
    CHECK(!Svcpp_GuildChannel_LinkedLobby(c, &lobby));
}

static void GuildChannels(Svcpp_Client *client) {
    ChannelsSeen seen, missing;
    memset(&seen, 0, sizeof seen);
    memset(&missing, 0, sizeof missing);
    CHECK_OK(Svcpp_Client_GetGuildChannels(client, 5, OnChannels, NULL, &seen));
    PumpUntil(client, &seen.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_None);
    CHECK_EQ_INT(seen.kept.size, 3);
    CheckChannel(&seen.kept.ptr[0], 10, "Text", Svcpp_ChannelType_GuildCategory, 0, 0, false, false);
    CheckChannel(&seen.kept.ptr[1], 20, "general", Svcpp_ChannelType_GuildText, 1, 10, true, true);
    CheckChannel(&seen.kept.ptr[2], 30, "voice", Svcpp_ChannelType_GuildVoice, 2, 0, false, true);
    CHECK_OK(Svcpp_GuildChannelSpan_Drop(&seen.kept));

    CHECK_OK(Svcpp_Client_GetGuildChannels(client, 6, OnChannels, NULL, &missing));
    PumpUntil(client, &missing.calls);
    CHECK_EQ_INT(missing.type, Svcpp_ErrorType_HTTPError);
    CHECK_EQ_INT(missing.status, Svcpp_HttpStatusCode_NotFound);
    CHECK(missing.kept.ptr == NULL);
}

/* ---- without a token: ValidationError with an empty span; misuse takes nothing ------------------------- */

static void WithoutToken(void) {
    Svcpp_Client client = {NULL};
    GuildsSeen guilds;
    ChannelsSeen channels;
    memset(&guilds, 0, sizeof guilds);
    memset(&channels, 0, sizeof channels);
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_ERRC(Svcpp_Client_GetUserGuilds(&client, NULL, NULL, &guilds), Svcpp_Errc_NullArgument);
    CHECK_OK(Svcpp_Client_GetUserGuilds(&client, OnGuilds, NULL, &guilds));
    CHECK_OK(Svcpp_Client_GetGuildChannels(&client, 5, OnChannels, NULL, &channels));
    PumpUntil(&client, &channels.calls);
    CHECK_EQ_INT(guilds.calls, 1);
    CHECK_EQ_INT(guilds.type, Svcpp_ErrorType_ValidationError);
    CHECK_EQ_INT(guilds.size, 0);
    CHECK_EQ_INT(channels.type, Svcpp_ErrorType_ValidationError);
    CHECK_OK(Svcpp_Client_Drop(&client));
}

int main(void) {
    char apiBase[64], webBase[64];
    Svcpp_Client client = {NULL};
    Counter token = {0, 0};
    pthread_t stub;

    DropEmpty();
    WithoutToken();

    stub = StartStub();
    snprintf(apiBase, sizeof apiBase, "http://127.0.0.1:%d/api/v10", stubPort);
    snprintf(webBase, sizeof webBase, "http://127.0.0.1:%d", stubPort);
    CHECK_OK(Svcpp_Client_InitWithBases(&client, S(apiBase), S(webBase)));
    CHECK_OK(Svcpp_Client_UpdateToken(&client, Svcpp_AuthorizationTokenType_Bearer, S("test-token"), TokenUpdated, NULL,
                                      &token));
    PumpUntil(&client, &token.calls);
    UserGuilds(&client);
    GuildChannels(&client);
    CHECK_OK(Svcpp_Client_Drop(&client));
    StopStub(stub);
    return 0;
}
