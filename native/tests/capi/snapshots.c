/*
 * C snapshots (native/SEMANTICS.md "Snapshots"): Svcpp_<T>_WriteSnapshot writes the packed layout, reports the size
 * it needs when the buffer is too small (and writes nothing past capacity), and refuses misuse like any function:
 * NULL size or a NULL buffer with a capacity, NULL / zeroed / dropped / wrong-type self. The lookup form answers
 * size 0 when nothing is found and refuses a dropped client.
 */
#include "check.h"

static uint64_t U64At(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint32_t U32At(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The layout of an AuthorizationArgs: ClientId (u64 at 0), Scopes (u32 size at 8, bytes at 12), then the optional
 * State, Nonce, CodeChallenge, IntegrationType and CustomSchemeParam, each a presence byte (absent: 0). */
static void WritesTheLayout(void) {
    Svcpp_AuthorizationArgs args = {0};
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
    CHECK_OK(Svcpp_AuthorizationArgs_SetClientId(&args, 0x0102030405060708ull));
    CHECK_OK(Svcpp_AuthorizationArgs_SetScopes(&args, S("openid x")));

    size_t size = 0;
    CHECK_OK(Svcpp_AuthorizationArgs_WriteSnapshot(&args, NULL, 0, &size)); /* asks the size */
    CHECK_EQ_INT(size, 8 + 4 + 8 + 5);

    uint8_t buffer[64];
    memset(buffer, 0xAA, sizeof buffer);
    size_t written = 0;
    CHECK_OK(Svcpp_AuthorizationArgs_WriteSnapshot(&args, buffer, sizeof buffer, &written));
    CHECK_EQ_INT(written, size);
    CHECK(U64At(buffer) == 0x0102030405060708ull);
    CHECK_EQ_INT(U32At(buffer + 8), 8);
    CHECK(memcmp(buffer + 12, "openid x", 8) == 0);
    for (size_t i = 20; i < 25; i++) CHECK_EQ_INT(buffer[i], 0); /* five absent optionals */
    CHECK_EQ_INT(buffer[25], 0xAA);                              /* nothing past the snapshot */

    /* Too small: Ok with the size it needs, and nothing written past capacity. */
    memset(buffer, 0xAA, sizeof buffer);
    size_t needed = 0;
    CHECK_OK(Svcpp_AuthorizationArgs_WriteSnapshot(&args, buffer, 10, &needed));
    CHECK_EQ_INT(needed, size);
    for (size_t i = 10; i < sizeof buffer; i++) CHECK_EQ_INT(buffer[i], 0xAA);

    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
}

static void RefusesMisuse(void) {
    Svcpp_AuthorizationArgs args = {0};
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
    uint8_t buffer[64];
    size_t size = 777;

    CHECK_ERRC(Svcpp_AuthorizationArgs_WriteSnapshot(&args, buffer, sizeof buffer, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_AuthorizationArgs_WriteSnapshot(&args, NULL, 8, &size), Svcpp_Errc_NullArgument);
    CHECK_EQ_INT(size, 777);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_AuthorizationArgs_WriteSnapshot");

    CHECK_ERRC(Svcpp_AuthorizationArgs_WriteSnapshot(NULL, buffer, sizeof buffer, &size), Svcpp_Errc_InvalidHandle);
    Svcpp_AuthorizationArgs zeroed = {0};
    CHECK_ERRC(Svcpp_AuthorizationArgs_WriteSnapshot(&zeroed, buffer, sizeof buffer, &size), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(size, 777);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_AuthorizationArgs_WriteSnapshot");

    /* A stale copy of a dropped handle, and a handle of another type. */
    Svcpp_AuthorizationArgs stale = args;
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
    CHECK_ERRC(Svcpp_AuthorizationArgs_WriteSnapshot(&stale, buffer, sizeof buffer, &size), Svcpp_Errc_InvalidHandle);
    Svcpp_ClientCreateOptions options = {0};
    CHECK_OK(Svcpp_ClientCreateOptions_Init(&options));
    CHECK_ERRC(
        Svcpp_AuthorizationArgs_WriteSnapshot((const Svcpp_AuthorizationArgs *)&options, buffer, sizeof buffer, &size),
        Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(size, 777);
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&options));
}

static void LookupSnapshots(void) {
    Svcpp_Client client = {0};
    CHECK_OK(Svcpp_Client_Init(&client));
    uint8_t buffer[64];
    size_t size = 777;

    /* Nothing cached yet: found nothing is Ok with size 0. */
    CHECK_OK(Svcpp_Client_GetUser_WriteSnapshot(&client, 42, buffer, sizeof buffer, &size));
    CHECK_EQ_INT(size, 0);
    CHECK_ERRC(Svcpp_Client_GetUser_WriteSnapshot(&client, 42, buffer, sizeof buffer, NULL), Svcpp_Errc_NullArgument);

    Svcpp_Client stale = client;
    CHECK_OK(Svcpp_Client_Drop(&client));
    size = 777;
    CHECK_ERRC(Svcpp_Client_GetUser_WriteSnapshot(&stale, 42, buffer, sizeof buffer, &size), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_GetUser_WriteSnapshot(&client, 42, buffer, sizeof buffer, &size), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Client_GetUser_WriteSnapshot(NULL, 42, buffer, sizeof buffer, &size), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(size, 777);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_GetUser_WriteSnapshot");
}

int main(void) {
    WritesTheLayout();
    RefusesMisuse();
    LookupSnapshots();
    return 0;
}
