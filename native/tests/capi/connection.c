/*
 * The connection's reports at the C ABI, without a platform: GetLastConnectionFailure is absent on a fresh client
 * and refuses a NULL handle or out-parameter; Connect without a token records an InvalidToken failure (not
 * retryable) before the Disconnected status is delivered, so a status callback can read it; the missed-events
 * slot takes and releases its user data like every single slot; the discarded-message count starts at 0.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "check.h"
#include "pump_until.h"

typedef struct {
    Svcpp_Client *client;
    int disconnected;
    int failureSeenInCallback;
    Svcpp_ConnectionFailureReason reason;
} StatusSeen;

static void SVCPP_CALL OnStatus(Svcpp_Client_Status status, Svcpp_Client_Error error, int32_t detail, void *userData) {
    StatusSeen *seen = (StatusSeen *)userData;
    Svcpp_ConnectionFailure failure = {NULL};
    (void)detail;
    if (status != Svcpp_Client_Status_Disconnected) return;
    CHECK_EQ_INT(error, Svcpp_Client_Error_ConnectionFailed);
    seen->failureSeenInCallback = Svcpp_Client_GetLastConnectionFailure(seen->client, &failure);
    if (seen->failureSeenInCallback) {
        seen->reason = Svcpp_ConnectionFailure_Reason(&failure);
        CHECK_OK(Svcpp_ConnectionFailure_Drop(&failure));
    }
    seen->disconnected = 1;
}

static void SVCPP_CALL OnMissedEvents(void *userData) { ((Counter *)userData)->calls++; }

int main(void) {
    Svcpp_Client client = {NULL};
    Svcpp_ConnectionFailure failure = {NULL};
    Svcpp_String message = {NULL, 0};
    StatusSeen seen = {NULL, 0, 0, Svcpp_ConnectionFailureReason_None};
    Counter missed = {0, 0};

    CHECK_OK(Svcpp_Client_Init(&client));
    seen.client = &client;

    /* Fresh: nothing recorded, nothing discarded. */
    CHECK(!Svcpp_Client_GetLastConnectionFailure(&client, &failure));
    CHECK(failure.opaque == NULL);
    CHECK(Svcpp_Client_GetDiscardedGatewayMessageCount(&client) == 0);

    /* Misuse: false, the reason in the last error, nothing written. */
    CHECK(!Svcpp_Client_GetLastConnectionFailure(NULL, &failure));
    CHECK_LAST_ERROR_MENTIONS("Svcpp_Client_GetLastConnectionFailure");
    CHECK(!Svcpp_Client_GetLastConnectionFailure(&client, NULL));
    CHECK_LAST_ERROR_MENTIONS("out");
    CHECK(failure.opaque == NULL);

    /* The missed-events slot: replaced and cleared like every single slot, its user data freed once. */
    CHECK_OK(Svcpp_Client_SetMissedEventsCallback(&client, OnMissedEvents, CountFree, &missed));
    CHECK_OK(Svcpp_Client_SetMissedEventsCallback(&client, NULL, NULL, NULL));
    CHECK_EQ_INT(missed.frees, 1);
    CHECK_EQ_INT(missed.calls, 0);
    CHECK_ERRC(Svcpp_Client_SetMissedEventsCallback(NULL, OnMissedEvents, CountFree, &missed),
               Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(missed.frees, 1); /* a rejected triple is never taken */

    /* Connect without a token: the failure is there when the Disconnected status is delivered. */
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(&client, OnStatus, NULL, &seen));
    CHECK_OK(Svcpp_Client_Connect(&client));
    PumpUntil(&client, &seen.disconnected);
    CHECK(seen.failureSeenInCallback);
    CHECK_EQ_INT(seen.reason, Svcpp_ConnectionFailureReason_InvalidToken);

    CHECK(Svcpp_Client_GetLastConnectionFailure(&client, &failure));
    CHECK_EQ_INT(Svcpp_ConnectionFailure_Reason(&failure), Svcpp_ConnectionFailureReason_InvalidToken);
    CHECK(!Svcpp_ConnectionFailure_Retryable(&failure));
    CHECK_EQ_INT(Svcpp_ConnectionFailure_CloseCode(&failure), 0);
    CHECK_EQ_INT(Svcpp_ConnectionFailure_HttpStatus(&failure), Svcpp_HttpStatusCode_None);
    CHECK_OK(Svcpp_ConnectionFailure_Message(&failure, &message));
    CHECK(StrContains(message, "UpdateToken"));
    Svcpp_Free(message.ptr);
    CHECK_OK(Svcpp_ConnectionFailure_Drop(&failure));
    CHECK(!Svcpp_ConnectionFailure_Retryable(&failure)); /* a dropped handle reads as the default */

    CHECK_OK(Svcpp_Client_Drop(&client));
    CHECK(!Svcpp_Client_GetLastConnectionFailure(&client, &failure)); /* a dropped client */
    return 0;
}
