/*
 * The social layer at the C ABI without a connection: the ActivityGamePlatforms bitmask (combinations pass,
 * unknown bits are InvalidArgument and keep the old value), enum checks of the activity types, ActivityInvite's
 * IsValid field (which stands in for the generic liveness check), the `max` limits of the new string arguments
 * (rejected synchronously, the callback's user data stays the caller's), empty relationship views before Ready,
 * and the ClientResults delivered through the pump: ValidationError before ClientNotReady.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "check.h"
#include "pump_until.h"

typedef struct {
    Counter c; /* first member: CountFree works on a Seen */
    Svcpp_ErrorType type;
} Seen;

static void SVCPP_CALL OnResult(Svcpp_ClientResult const *result, void *userData) {
    Seen *seen = (Seen *)userData;
    seen->type = Svcpp_ClientResult_Type(result);
    seen->c.calls++;
}

static void SVCPP_CALL OnAccept(Svcpp_ClientResult const *result, Svcpp_String joinSecret, void *userData) {
    CHECK(joinSecret.size == 0);
    OnResult(result, userData);
}

static void Bitmask(void) {
    Svcpp_Activity a = {NULL};
    CHECK_OK(Svcpp_Activity_Init(&a));
    CHECK_EQ_INT(Svcpp_Activity_SupportedPlatforms(&a), 0);
    CHECK_OK(Svcpp_Activity_SetSupportedPlatforms(
        &a, (Svcpp_ActivityGamePlatforms)(Svcpp_ActivityGamePlatforms_Desktop | Svcpp_ActivityGamePlatforms_IOS)));
    CHECK_EQ_INT(Svcpp_Activity_SupportedPlatforms(&a), 9);
    CHECK_OK(Svcpp_Activity_SetSupportedPlatforms(&a, (Svcpp_ActivityGamePlatforms)255));
    CHECK_ERRC(Svcpp_Activity_SetSupportedPlatforms(&a, (Svcpp_ActivityGamePlatforms)256), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Activity_SetSupportedPlatforms(&a, (Svcpp_ActivityGamePlatforms)-1), Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_Activity_SupportedPlatforms(&a), 255);
    CHECK_ERRC(Svcpp_Activity_SetType(&a, (Svcpp_ActivityTypes)7), Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_Activity_Type(&a), Svcpp_ActivityTypes_Playing);
    CHECK_OK(Svcpp_Activity_Drop(&a));
}

static Svcpp_ActivityButton Button(const char *label, const char *url) {
    Svcpp_ActivityButton b = {NULL};
    CHECK_OK(Svcpp_ActivityButton_Init(&b));
    CHECK_OK(Svcpp_ActivityButton_SetLabel(&b, S(label)));
    CHECK_OK(Svcpp_ActivityButton_SetUrl(&b, S(url)));
    return b;
}

/* AddButton copies the button in, GetButtons hands out a caller-owned span, Equals compares buttons in order. */
static void Buttons(void) {
    Svcpp_Activity a = {NULL};
    Svcpp_Activity b = {NULL};
    Svcpp_ActivityButton one = Button("One", "https://one.test");
    Svcpp_ActivityButton two = Button("Two", "https://two.test");
    Svcpp_ActivityButtonSpan got = {NULL, 0};
    Svcpp_String s = {NULL, 0};
    CHECK_OK(Svcpp_Activity_Init(&a));
    CHECK_OK(Svcpp_Activity_Init(&b));
    CHECK(Svcpp_Activity_Equals(&a, &b));
    CHECK_OK(Svcpp_Activity_AddButton(&a, &one));
    CHECK_OK(Svcpp_Activity_AddButton(&a, &two));
    CHECK_OK(Svcpp_ActivityButton_SetLabel(&one, S("changed"))); /* a copy went in */
    CHECK(!Svcpp_Activity_Equals(&a, &b));
    CHECK(Svcpp_Activity_Equals(&a, &a));
    CHECK_OK(Svcpp_Activity_GetButtons(&a, &got));
    CHECK_EQ_INT(got.size, 2);
    CHECK_OK(Svcpp_ActivityButton_Label(&got.ptr[0], &s));
    CHECK_STR_TAKE(s, "One");
    CHECK_OK(Svcpp_ActivityButton_Label(&got.ptr[1], &s));
    CHECK_STR_TAKE(s, "Two");
    CHECK_OK(Svcpp_Activity_SetButtons(&b, got));
    CHECK(Svcpp_Activity_Equals(&a, &b));
    CHECK_OK(Svcpp_ActivityButtonSpan_Drop(&got));
    CHECK_ERRC(Svcpp_Activity_AddButton(&a, NULL), Svcpp_Errc_NullArgument);
    CHECK_OK(Svcpp_ActivityButton_Drop(&one));
    CHECK_ERRC(Svcpp_Activity_AddButton(&a, &one), Svcpp_Errc_InvalidHandle);
    CHECK_OK(Svcpp_Activity_GetButtons(&a, &got));
    CHECK_EQ_INT(got.size, 2); /* rejected calls changed nothing */
    CHECK_OK(Svcpp_ActivityButtonSpan_Drop(&got));
    CHECK_OK(Svcpp_ActivityButton_Drop(&two));
    CHECK_OK(Svcpp_Activity_Drop(&a));
    CHECK_OK(Svcpp_Activity_Drop(&b));
}

static void InviteIsValidField(void) {
    Svcpp_ActivityInvite invite = {NULL};
    Svcpp_ActivityInvite zeroed = {NULL};
    CHECK(!Svcpp_ActivityInvite_IsValid(&zeroed));
    CHECK_OK(Svcpp_ActivityInvite_Init(&invite));
    CHECK(!Svcpp_ActivityInvite_IsValid(&invite));
    CHECK_OK(Svcpp_ActivityInvite_SetIsValid(&invite, true));
    CHECK(Svcpp_ActivityInvite_IsValid(&invite));
    CHECK_ERRC(Svcpp_ActivityInvite_SetType(&invite, (Svcpp_ActivityActionTypes)2), Svcpp_Errc_InvalidArgument);
    CHECK_OK(Svcpp_ActivityInvite_Drop(&invite));
    CHECK(!Svcpp_ActivityInvite_IsValid(&invite));
}

static void ClientWithoutSession(void) {
    Svcpp_Client client = {NULL};
    Svcpp_RelationshipHandleSpan relationships = {NULL, 0};
    Svcpp_UserHandleSpan users = {NULL, 0};
    Svcpp_RelationshipHandle one = {NULL};
    Svcpp_Activity activity = {NULL};
    Svcpp_ActivityInvite invite = {NULL};
    Seen seen = {{0, 0}, Svcpp_ErrorType_None};
    static char longText[1100];
    memset(longText, 'x', sizeof longText);
    CHECK_OK(Svcpp_Client_Init(&client));

    /* Before Ready every view is empty. */
    CHECK_OK(Svcpp_Client_GetRelationships(&client, &relationships));
    CHECK_EQ_INT(relationships.size, 0);
    CHECK_OK(Svcpp_RelationshipHandleSpan_Drop(&relationships));
    CHECK_OK(Svcpp_Client_GetRelationshipsByGroup(&client, Svcpp_RelationshipGroupType_Offline, &relationships));
    CHECK_EQ_INT(relationships.size, 0);
    CHECK_OK(Svcpp_RelationshipHandleSpan_Drop(&relationships));
    CHECK(!Svcpp_Client_GetRelationshipHandle(&client, 42, &one));
    CHECK_ERRC(Svcpp_Client_GetRelationshipsByGroup(&client, (Svcpp_RelationshipGroupType)3, &relationships),
               Svcpp_Errc_InvalidArgument);

    /* `max` limits: synchronous InvalidArgument, and the user data is not taken (not freed). */
    CHECK_ERRC(Svcpp_Client_SearchFriendsByUsername(&client, SN(longText, 257), &users), Svcpp_Errc_InvalidArgument);
    CHECK_OK(Svcpp_Client_SearchFriendsByUsername(&client, SN(longText, 256), &users));
    CHECK_EQ_INT(users.size, 0);
    CHECK_OK(Svcpp_UserHandleSpan_Drop(&users));
    CHECK_ERRC(Svcpp_Client_SendActivityInvite(&client, 42, SN(longText, 1025), OnResult, CountFree, &seen),
               Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SendPlatformFriendRequest(&client, SN(longText, 257), OnResult, CountFree, &seen),
               Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetOnlineStatus(&client, (Svcpp_StatusType)99, OnResult, CountFree, &seen),
               Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(seen.c.frees, 0);
    CHECK_EQ_INT(seen.c.calls, 0);

    /* Through the pump: a local check fails first (ValidationError), then the missing session (ClientNotReady). */
    CHECK_OK(Svcpp_Activity_Init(&activity));
    CHECK_OK(Svcpp_Activity_SetType(&activity, Svcpp_ActivityTypes_Streaming));
    CHECK_OK(Svcpp_Client_UpdateRichPresence(&client, &activity, OnResult, NULL, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ValidationError);
    seen.c.calls = 0;
    CHECK_OK(Svcpp_Activity_SetType(&activity, Svcpp_ActivityTypes_Playing));
    CHECK_OK(Svcpp_Client_UpdateRichPresence(&client, &activity, OnResult, NULL, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ClientNotReady);
    seen.c.calls = 0;
    CHECK_OK(Svcpp_Client_SetOnlineStatus(&client, Svcpp_StatusType_Offline, OnResult, NULL, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ValidationError);
    seen.c.calls = 0;
    CHECK_OK(Svcpp_Client_BlockUser(&client, 0, OnResult, CountFree, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ValidationError);
    CHECK_EQ_INT(seen.c.frees, 1); /* a completed one-shot releases its user data */
    seen.c.calls = 0;
    CHECK_OK(Svcpp_Client_AcceptPlatformFriendRequest(&client, 42, OnResult, NULL, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ClientNotReady);
    seen.c.calls = 0;
    CHECK_OK(Svcpp_ActivityInvite_Init(&invite)); /* type Invalid: not acceptable */
    CHECK_OK(Svcpp_Client_AcceptActivityInvite(&client, &invite, OnAccept, NULL, &seen));
    PumpUntil(&client, &seen.c.calls);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ValidationError);

    CHECK_OK(Svcpp_ActivityInvite_Drop(&invite));
    CHECK_OK(Svcpp_Activity_Drop(&activity));
    CHECK_OK(Svcpp_Client_Drop(&client));
}

int main(void) {
    Bitmask();
    Buttons();
    InviteIsValidField();
    ClientWithoutSession();
    return 0;
}
