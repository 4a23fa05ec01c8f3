/* ABI and product version queries, enum names, memory functions. */
#include "check.h"

static void CheckEnumName(const char *got, const char *want) {
    CHECK(got != NULL);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "enum name: got \"%s\", want \"%s\"\n", got, want);
        exit(1);
    }
}

int main(void) {
    /* The library implements exactly the ABI this header describes. */
    CHECK_EQ_INT(Svcpp_GetAbiVersion(), SVCPP_ABI_VERSION);
    CHECK_EQ_INT(SVCPP_ABI_VERSION, (SVCPP_ABI_VERSION_MAJOR << 16) | SVCPP_ABI_VERSION_MINOR);
    CHECK_OK(Svcpp_CheckAbiVersion(SVCPP_ABI_VERSION));

    /* Same major, caller minor <= library minor: Ok. A newer caller minor or another major: mismatch. */
    {
        uint32_t major = SVCPP_ABI_VERSION_MAJOR;
        uint32_t minor = SVCPP_ABI_VERSION_MINOR;
        if (minor > 0) CHECK_OK(Svcpp_CheckAbiVersion((major << 16) | (minor - 1)));
        CHECK_ERRC(Svcpp_CheckAbiVersion((major << 16) | (minor + 1)), Svcpp_Errc_AbiMismatch);
        CHECK_ERRC(Svcpp_CheckAbiVersion(((major + 1) << 16) | minor), Svcpp_Errc_AbiMismatch);
        CHECK_ERRC(Svcpp_CheckAbiVersion(((major - 1) << 16) | minor), Svcpp_Errc_AbiMismatch);
        CHECK_ERRC(Svcpp_CheckAbiVersion(0), Svcpp_Errc_AbiMismatch);
        CHECK_ERRC(Svcpp_CheckAbiVersion(0xFFFFFFFFu), Svcpp_Errc_AbiMismatch);
    }

    /* Product version getters agree with the header. */
    CHECK_EQ_INT(Svcpp_Client_GetVersionMajor(), SVCPP_VERSION_MAJOR);
    CHECK_EQ_INT(Svcpp_Client_GetVersionMinor(), SVCPP_VERSION_MINOR);
    CHECK_EQ_INT(Svcpp_Client_GetVersionPatch(), SVCPP_VERSION_PATCH);
    {
        Svcpp_String hash = {NULL, 0};
        size_t i;
        CHECK_OK(Svcpp_Client_GetVersionHash(&hash));
        CHECK(hash.ptr != NULL && hash.ptr[hash.size] == '\0');
        for (i = 0; i < hash.size; i++) CHECK(hash.ptr[i] >= 0x20 && hash.ptr[i] < 0x7F);
        Svcpp_Free(hash.ptr);
        CHECK_ERRC(Svcpp_Client_GetVersionHash(NULL), Svcpp_Errc_NullArgument);
    }

    /* Enum names: every known value has its name, unknown values are "Unknown". */
    CheckEnumName(Svcpp_ErrcName(Svcpp_Errc_Ok), "Ok");
    CheckEnumName(Svcpp_ErrcName(Svcpp_Errc_InvalidUtf8), "InvalidUtf8");
    CheckEnumName(Svcpp_ErrcName(Svcpp_Errc_Internal), "Internal");
    CheckEnumName(Svcpp_ErrcName((Svcpp_Errc)11), "Unknown");
    CheckEnumName(Svcpp_ErrcName((Svcpp_Errc)-1), "Unknown");
    CheckEnumName(Svcpp_LoggingSeverityToString(Svcpp_LoggingSeverity_Verbose), "Verbose");
    CheckEnumName(Svcpp_LoggingSeverityToString(Svcpp_LoggingSeverity_None), "None");
    CheckEnumName(Svcpp_LoggingSeverityToString((Svcpp_LoggingSeverity)0), "Unknown");
    CheckEnumName(Svcpp_ErrorTypeToString(Svcpp_ErrorType_Aborted), "Aborted");
    CheckEnumName(Svcpp_ErrorTypeToString(Svcpp_ErrorType_RPCError), "RPCError");
    CheckEnumName(Svcpp_HttpStatusCodeToString(Svcpp_HttpStatusCode_TooManyRequests), "TooManyRequests");
    CheckEnumName(Svcpp_HttpStatusCodeToString((Svcpp_HttpStatusCode)299), "Unknown");
    CheckEnumName(Svcpp_AudioSystemToString(Svcpp_AudioSystem_Game), "Game");
    CheckEnumName(Svcpp_AuthenticationCodeChallengeMethodToString(Svcpp_AuthenticationCodeChallengeMethod_S256),
                  "S256");
    CheckEnumName(Svcpp_IntegrationTypeToString(Svcpp_IntegrationType_UserInstall), "UserInstall");
    CheckEnumName(Svcpp_Client_StatusToString(Svcpp_Client_Status_Ready), "Ready");
    CheckEnumName(Svcpp_Client_StatusToString(Svcpp_Client_Status_HttpWait), "HttpWait");
    CheckEnumName(Svcpp_Client_StatusToString((Svcpp_Client_Status)7), "Unknown");
    CheckEnumName(Svcpp_Client_ErrorToString(Svcpp_Client_Error_ConnectionCanceled), "ConnectionCanceled");
    CheckEnumName(Svcpp_Client_ThreadToString(Svcpp_Client_Thread_Network), "Network");
    CheckEnumName(Svcpp_Client_ThreadToString((Svcpp_Client_Thread)0x7FFFFFFF), "Unknown");

    /* Memory functions: Alloc/Free pair, Free(NULL) is allowed. */
    {
        unsigned char *p = (unsigned char *)Svcpp_Alloc(64);
        CHECK(p != NULL);
        memset(p, 0xA5, 64);
        Svcpp_Free(p);
        Svcpp_Free(NULL);
    }

    /* Svcpp_GetLastErrorMessage needs an out-param. */
    CHECK_ERRC(Svcpp_GetLastErrorMessage(NULL), Svcpp_Errc_NullArgument);
    puts("abi_version: ok");
    return 0;
}
