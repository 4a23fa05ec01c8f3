/*
 * String inputs of every string setter: {NULL, n > 0}, invalid UTF-8 (overlong, surrogate, truncated,
 * 0xFF, above U+10FFFF, stray continuation byte), limits counted in code points (IDL `max`), and that a
 * rejected call keeps the old value. Svcpp_GetLastErrorMessage names the failing function.
 */
#include "check.h"

/* One string field: setter/getter over an untyped handle, its IDL limit in code points (0 = none). */
typedef struct StringField {
    const char *name;
    size_t max;
    Svcpp_Errc (*set)(void *h, Svcpp_String v);
    bool (*get)(void *h, Svcpp_String *out); /* true when present */
    void *handle;
} StringField;

#define REQUIRED_FIELD(T, F)                                                                                   \
    static Svcpp_Errc Set_##T##_##F(void *h, Svcpp_String v) { return Svcpp_##T##_Set##F((Svcpp_##T *)h, v); } \
    static bool Get_##T##_##F(void *h, Svcpp_String *o) {                                                      \
        CHECK_OK(Svcpp_##T##_##F((Svcpp_##T *)h, o));                                                          \
        return true;                                                                                           \
    }
#define OPTIONAL_FIELD(T, F)                                                                                    \
    static Svcpp_Errc Set_##T##_##F(void *h, Svcpp_String v) { return Svcpp_##T##_Set##F((Svcpp_##T *)h, &v); } \
    static bool Get_##T##_##F(void *h, Svcpp_String *o) { return Svcpp_##T##_##F((Svcpp_##T *)h, o); }

REQUIRED_FIELD(ClientCreateOptions, ApiBase)
REQUIRED_FIELD(ClientCreateOptions, WebBase)
REQUIRED_FIELD(ClientCreateOptions, CaFile)
REQUIRED_FIELD(ClientResult, Error)
REQUIRED_FIELD(ClientResult, ResponseBody)
REQUIRED_FIELD(AuthorizationCodeChallenge, Challenge)
REQUIRED_FIELD(AuthorizationCodeVerifier, Verifier)
REQUIRED_FIELD(AuthorizationArgs, Scopes)
OPTIONAL_FIELD(AuthorizationArgs, State)
OPTIONAL_FIELD(AuthorizationArgs, Nonce)
OPTIONAL_FIELD(AuthorizationArgs, CustomSchemeParam)

#define FIELD(T, F, max, h) \
    { "Svcpp_" #T "_Set" #F, max, Set_##T##_##F, Get_##T##_##F, h }

/* Malformed UTF-8, each embedded between valid ASCII so the position is not at the start. */
typedef struct Bad {
    const char *what;
    const char *bytes;
    size_t size;
} Bad;
static const Bad badUtf8[] = {
    {"overlong 2-byte slash",
     "a\xC0\xAF"
     "b",
     4},
    {"overlong 2-byte C1",
     "a\xC1\xBF"
     "b",
     4},
    {"overlong 3-byte",
     "a\xE0\x80\xAF"
     "b",
     5},
    {"overlong 4-byte",
     "a\xF0\x80\x80\xAF"
     "b",
     6},
    {"overlong NUL",
     "a\xC0\x80"
     "b",
     4},
    {"high surrogate U+D800",
     "a\xED\xA0\x80"
     "b",
     5},
    {"low surrogate U+DFFF",
     "a\xED\xBF\xBF"
     "b",
     5},
    {"surrogate pair encoded as two 3-byte sequences", "\xED\xA0\xBD\xED\xB8\x80", 6},
    {"truncated 3-byte at end", "ab\xE2\x82", 4},
    {"truncated 4-byte at end", "ab\xF0\x9F\x98", 5},
    {"truncated 2-byte followed by ASCII",
     "a\xC3"
     "b",
     3},
    {"truncated 3-byte followed by ASCII",
     "a\xE2\x82"
     "b",
     4},
    {"lone 0xFF",
     "a\xFF"
     "b",
     3},
    {"lone 0xFE",
     "a\xFE"
     "b",
     3},
    {"only 0xFF", "\xFF", 1},
    {"stray continuation byte",
     "a\x80"
     "b",
     3},
    {"above U+10FFFF (F4 90)",
     "a\xF4\x90\x80\x80"
     "b",
     6},
    {"F5 lead byte",
     "a\xF5\x80\x80\x80"
     "b",
     6},
    {"5-byte form",
     "a\xF8\x88\x80\x80\x80"
     "b",
     7},
};

/* Valid multi-byte UTF-8 that must round-trip byte for byte. */
static const char *goodUtf8[] = {
    "caf\xC3\xA9",            /* é */
    "\xE2\x82\xAC 5",         /* € */
    "\xF0\x9F\x98\x80 smile", /* U+1F600 */
    "\xF4\x8F\xBF\xBF",       /* U+10FFFF, the last code point */
    "\xEF\xBF\xBF",           /* U+FFFF (a noncharacter, still valid UTF-8) */
    "\xED\x9F\xBF",           /* U+D7FF, just below the surrogates */
    "\xEE\x80\x80",           /* U+E000, just above the surrogates */
};

/* n copies of the UTF-8 sequence `unit` into a malloc'd buffer. */
static char *Repeat(const char *unit, size_t n, size_t *size) {
    size_t u = strlen(unit), i;
    char *buf = (char *)malloc(u * n + 1);
    CHECK(buf != NULL);
    for (i = 0; i < n; i++) memcpy(buf + i * u, unit, u);
    buf[u * n] = '\0';
    *size = u * n;
    return buf;
}

static void CheckValue(const StringField *f, const void *bytes, size_t size) {
    Svcpp_String out = {NULL, 0};
    CHECK(f->get(f->handle, &out));
    if (out.size != size || (size && memcmp(out.ptr, bytes, size) != 0)) {
        fprintf(stderr, "%s: value changed (size %zu, want %zu)\n", f->name, out.size, size);
        exit(1);
    }
    CHECK(out.ptr != NULL && out.ptr[out.size] == '\0');
    Svcpp_Free(out.ptr);
}

static void Accepts(const StringField *f, const void *bytes, size_t size) {
    Svcpp_Errc rc = f->set(f->handle, SN(bytes, size));
    if (rc != Svcpp_Errc_Ok) {
        fprintf(stderr, "%s rejected a valid value of %zu bytes: %s\n", f->name, size, Svcpp_ErrcName(rc));
        exit(1);
    }
    CheckValue(f, bytes, size);
}

static void Rejects(const StringField *f, const void *bytes, size_t size, Svcpp_Errc want, const char *what) {
    static const char old[] = "old value";
    Svcpp_Errc rc;
    CHECK_OK(f->set(f->handle, S(old)));
    rc = f->set(f->handle, SN(bytes, size));
    if (rc != want) {
        fprintf(stderr, "%s(%s): got %s, want %s\n", f->name, what, Svcpp_ErrcName(rc), Svcpp_ErrcName(want));
        exit(1);
    }
    CHECK_LAST_ERROR_MENTIONS(f->name);
    CheckValue(f, old, strlen(old)); /* a failing call changes nothing */
}

static void CheckField(const StringField *f) {
    size_t i, size;
    char *buf;

    /* {NULL, 0} is the empty string; {NULL, n > 0} is a NULL argument. */
    Accepts(f, NULL, 0);
    Rejects(f, NULL, 5, Svcpp_Errc_NullArgument, "{NULL, 5}");

    for (i = 0; i < sizeof badUtf8 / sizeof badUtf8[0]; i++)
        Rejects(f, badUtf8[i].bytes, badUtf8[i].size, Svcpp_Errc_InvalidUtf8, badUtf8[i].what);
    for (i = 0; i < sizeof goodUtf8 / sizeof goodUtf8[0]; i++) Accepts(f, goodUtf8[i], strlen(goodUtf8[i]));

    if (f->max == 0) {
        /* No limit: a long string is accepted whole. */
        buf = Repeat("\xE2\x82\xAC", 20000, &size);
        Accepts(f, buf, size);
        free(buf);
        return;
    }
    /* Exactly max code points: accepted, whatever the byte count (4-byte units = 4 * max bytes). */
    buf = Repeat("a", f->max, &size);
    Accepts(f, buf, size);
    free(buf);
    buf = Repeat("\xF0\x9F\x98\x80", f->max, &size);
    Accepts(f, buf, size);
    free(buf);
    buf = Repeat("\xC3\xA9", f->max, &size);
    Accepts(f, buf, size);
    free(buf);
    /* max - 1 ASCII plus one 3-byte code point: max code points in max + 2 bytes. */
    buf = Repeat("a", f->max + 2, &size);
    memcpy(buf + f->max - 1, "\xE2\x82\xAC", 3);
    Accepts(f, buf, size);
    free(buf);
    /* max + 1 code points: rejected, whether ASCII or multi-byte. */
    buf = Repeat("a", f->max + 1, &size);
    Rejects(f, buf, size, Svcpp_Errc_InvalidArgument, "max + 1 ASCII");
    free(buf);
    buf = Repeat("\xC3\xA9", f->max + 1, &size);
    Rejects(f, buf, size, Svcpp_Errc_InvalidArgument, "max + 1 two-byte code points");
    free(buf);
    buf = Repeat("\xF0\x9F\x98\x80", f->max + 1, &size);
    Rejects(f, buf, size, Svcpp_Errc_InvalidArgument, "max + 1 four-byte code points");
    free(buf);
}

int main(void) {
    Svcpp_ClientCreateOptions opts = {NULL};
    Svcpp_ClientResult result = {NULL};
    Svcpp_AuthorizationCodeChallenge challenge = {NULL};
    Svcpp_AuthorizationCodeVerifier verifier = {NULL};
    Svcpp_AuthorizationArgs args = {NULL};
    Svcpp_Client client = {NULL};
    size_t i;

    CHECK_OK(Svcpp_ClientCreateOptions_Init(&opts));
    CHECK_OK(Svcpp_ClientResult_Init(&result));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Init(&challenge));
    CHECK_OK(Svcpp_AuthorizationArgs_Init(&args));
    CHECK_OK(Svcpp_Client_Init(&client));
    CHECK_OK(Svcpp_Client_CreateAuthorizationCodeVerifier(&client, &verifier));
    {
        const StringField fields[] = {
            FIELD(ClientCreateOptions, ApiBase, 2048, &opts),
            FIELD(ClientCreateOptions, WebBase, 2048, &opts),
            FIELD(ClientCreateOptions, CaFile, 4096, &opts),
            FIELD(ClientResult, Error, 0, &result),
            FIELD(ClientResult, ResponseBody, 0, &result),
            FIELD(AuthorizationCodeChallenge, Challenge, 128, &challenge),
            FIELD(AuthorizationCodeVerifier, Verifier, 128, &verifier),
            FIELD(AuthorizationArgs, Scopes, 1024, &args),
            FIELD(AuthorizationArgs, State, 1024, &args),
            FIELD(AuthorizationArgs, Nonce, 1024, &args),
            FIELD(AuthorizationArgs, CustomSchemeParam, 256, &args),
        };
        for (i = 0; i < sizeof fields / sizeof fields[0]; i++) CheckField(&fields[i]);
    }

    /* An optional string set to a pointer to {NULL, n > 0} is rejected and keeps the old value. */
    {
        Svcpp_String bad = {NULL, 3};
        Svcpp_String out = {NULL, 0};
        CHECK_OK(Svcpp_AuthorizationArgs_SetState(&args, NULL));
        CHECK_ERRC(Svcpp_AuthorizationArgs_SetState(&args, &bad), Svcpp_Errc_NullArgument);
        CHECK(!Svcpp_AuthorizationArgs_State(&args, &out)); /* still absent */
    }

    /* The detail of the last failure: function name and where the UTF-8 broke. */
    {
        Svcpp_String msg;
        CHECK_ERRC(Svcpp_AuthorizationArgs_SetScopes(&args, S("abc\xFF")), Svcpp_Errc_InvalidUtf8);
        msg = LastError();
        if (!StrContains(msg, "Svcpp_AuthorizationArgs_SetScopes") || !StrContains(msg, "byte 3")) {
            fprintf(stderr, "last error \"%.*s\": want the function name and \"byte 3\"\n", (int)msg.size,
                    (const char *)msg.ptr);
            exit(1);
        }
        CHECK(msg.ptr[msg.size] == '\0');
        Svcpp_Free(msg.ptr);
        /* A later failure in another function replaces it. */
        CHECK_ERRC(Svcpp_AuthorizationArgs_SetNonce(&args, NULL), Svcpp_Errc_Ok);
        CHECK_ERRC(Svcpp_ClientCreateOptions_SetCaFile(&opts, SN(NULL, 1)), Svcpp_Errc_NullArgument);
        CHECK_LAST_ERROR_MENTIONS("Svcpp_ClientCreateOptions_SetCaFile");
    }

    /* Client constructors validate their strings too, and a failing Init leaves *self untouched. */
    {
        Svcpp_Client c = {NULL};
        size_t size;
        char *longAscii = Repeat("a", 2049, &size);
        char *maxEmoji;
        CHECK_ERRC(Svcpp_Client_InitWithBases(&c, SN(NULL, 4), S("http://web")), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_Client_InitWithBases(&c, S("http://api"), SN(NULL, 4)), Svcpp_Errc_NullArgument);
        CHECK_ERRC(Svcpp_Client_InitWithBases(&c, S("http://\xC0\xAF"), S("http://web")), Svcpp_Errc_InvalidUtf8);
        CHECK_ERRC(Svcpp_Client_InitWithBases(&c, S("http://api"), S("http://\xED\xA0\x80")), Svcpp_Errc_InvalidUtf8);
        CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_InitWithBases");
        CHECK_ERRC(Svcpp_Client_InitWithBases(&c, SN(longAscii, size), S("http://web")), Svcpp_Errc_InvalidArgument);
        CHECK_ERRC(Svcpp_Client_InitWithBases(&c, S("http://api"), SN(longAscii, size)), Svcpp_Errc_InvalidArgument);
        CHECK(c.opaque == NULL);
        maxEmoji = Repeat("\xF0\x9F\x98\x80", 2048, &size);
        CHECK_OK(Svcpp_Client_InitWithBases(&c, SN(maxEmoji, size), SN(maxEmoji, size)));
        CHECK(Svcpp_Client_IsValid(&c));
        CHECK_OK(Svcpp_Client_Drop(&c));
        free(longAscii);
        free(maxEmoji);
    }

    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK_OK(Svcpp_AuthorizationArgs_Drop(&args));
    CHECK_OK(Svcpp_AuthorizationCodeVerifier_Drop(&verifier));
    CHECK_OK(Svcpp_AuthorizationCodeChallenge_Drop(&challenge));
    CHECK_OK(Svcpp_ClientResult_Drop(&result));
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&opts));
    puts("strings: ok");
    return 0;
}
