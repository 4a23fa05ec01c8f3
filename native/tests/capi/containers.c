/*
 * The fixed container vocabulary of the C ABI before any method uses it: Svcpp_UInt64Span_Drop (frees a
 * library-allocated id buffer, zeroes the span; NULL and {NULL, n > 0} rejected untouched), Svcpp_FreeProperties on
 * empty and library-allocated maps, and ActivityButton (the element type of Activity.Buttons): limits in code points,
 * deep Clone.
 */
#include "check.h"

static void U64SpanDrop(void) {
    Svcpp_UInt64Span span = {NULL, 0};
    Svcpp_UInt64Span malformed = {NULL, 3};
    uint64_t *ids = (uint64_t *)Svcpp_Alloc(2 * sizeof(uint64_t));

    CHECK_ERRC(Svcpp_UInt64Span_Drop(NULL), Svcpp_Errc_NullArgument);
    CHECK_OK(Svcpp_UInt64Span_Drop(&span)); /* a zeroed span is Ok */
    CHECK_ERRC(Svcpp_UInt64Span_Drop(&malformed), Svcpp_Errc_NullArgument);
    CHECK_LAST_ERROR_MENTIONS("Svcpp_UInt64Span_Drop");
    CHECK(malformed.ptr == NULL && malformed.size == 3);

    CHECK(ids != NULL);
    ids[0] = 1;
    ids[1] = UINT64_MAX;
    span.ptr = ids;
    span.size = 2;
    CHECK_OK(Svcpp_UInt64Span_Drop(&span));
    CHECK(span.ptr == NULL && span.size == 0);
}

static Svcpp_String Copy(const char *text) {
    size_t n = strlen(text);
    Svcpp_String s;
    s.ptr = (uint8_t *)Svcpp_Alloc(n + 1);
    CHECK(s.ptr != NULL);
    memcpy(s.ptr, text, n + 1);
    s.size = n;
    return s;
}

static void FreeProperties(void) {
    Svcpp_Properties empty = {0, NULL, NULL};
    Svcpp_Properties props;
    Svcpp_FreeProperties(empty); /* nothing to free: must not crash */

    /* Built with the library allocator, exactly as an output is: one buffer per string and one per array. */
    props.size = 2;
    props.keys = (Svcpp_String *)Svcpp_Alloc(2 * sizeof(Svcpp_String));
    props.values = (Svcpp_String *)Svcpp_Alloc(2 * sizeof(Svcpp_String));
    CHECK(props.keys != NULL && props.values != NULL);
    props.keys[0] = Copy("a");
    props.values[0] = Copy("1");
    props.keys[1] = Copy("b");
    props.values[1] = Copy("");
    Svcpp_FreeProperties(props); /* releases every string and both arrays */
}

static void ActivityButtonLimits(void) {
    /* 32 code points of 2 bytes each: within Label's limit of 32 code points although 64 bytes. */
    static const char e32[] =
        "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
        "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
        "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9";
    char url[514];
    Svcpp_ActivityButton button = {NULL};
    Svcpp_ActivityButton copy = {NULL};
    Svcpp_String out = {NULL, 0};

    CHECK_EQ_INT(strlen(e32), 64);
    CHECK_OK(Svcpp_ActivityButton_Init(&button));
    CHECK_OK(Svcpp_ActivityButton_SetLabel(&button, S("Join")));
    CHECK_OK(Svcpp_ActivityButton_SetLabel(&button, SN(e32, 64)));
    CHECK_ERRC(Svcpp_ActivityButton_SetLabel(&button, S("123456789012345678901234567890123")),
               Svcpp_Errc_InvalidArgument);
    CHECK_OK(Svcpp_ActivityButton_Label(&button, &out));
    CHECK(out.size == 64 && memcmp(out.ptr, e32, 64) == 0); /* the rejected call changed nothing */
    Svcpp_Free(out.ptr);

    memset(url, 'u', sizeof url);
    CHECK_OK(Svcpp_ActivityButton_SetUrl(&button, SN(url, 512)));
    CHECK_ERRC(Svcpp_ActivityButton_SetUrl(&button, SN(url, 513)), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_ActivityButton_SetUrl(&button, SN("\xFF", 1)), Svcpp_Errc_InvalidUtf8);

    CHECK_OK(Svcpp_ActivityButton_Clone(&copy, &button));
    CHECK_OK(Svcpp_ActivityButton_SetUrl(&button, S("https://example.com/")));
    CHECK_OK(Svcpp_ActivityButton_Url(&copy, &out)); /* deep copy: the original's change does not show */
    CHECK_EQ_INT(out.size, 512);
    Svcpp_Free(out.ptr);
    CHECK_OK(Svcpp_ActivityButton_Drop(&copy));
    CHECK_OK(Svcpp_ActivityButton_Drop(&button));
    CHECK(!Svcpp_ActivityButton_IsValid(&button));
}

int main(void) {
    U64SpanDrop();
    FreeProperties();
    ActivityButtonLimits();
    puts("capi.containers: ok");
    return 0;
}
