/*
 * The voice bad-input rules that need a live call, at the C ABI, against a real platform (docs/voice.md "Bad
 * input"; test/e2e/capi-voice-call.test.ts starts the platform, puts another player in the lobby's call — self-muted —
 * and runs this program). Each rule is rejected synchronously, nothing changes, and user data handed with a
 * rejected call stays the caller's:
 *   the lobby's CallInfoHandle before joining: the other player, their voice state, channel id = lobby, guild 0;
 *   StartCall on a lobby the user is not a member of → false, "not a member"; no call exists afterwards;
 *   a second StartCall / StartCallWithAudioCallbacks for the same lobby → false, "already in the call";
 *   participant volume above 200, below 0 or NaN → InvalidArgument, the old volume kept; local mute of user 0,
 *   a VAD threshold above 0 dBFS, a PTT release delay above 10 s → InvalidArgument;
 *   setters on a call that ended (a clone kept past EndCall) → InvalidHandle, getters read defaults;
 *   setters on a dropped Call handle → InvalidHandle.
 * And, live, the call's end-to-end encryption through the C ABI (svcpp additions): the encryption-state callback
 * fires as this user joins the group it shares with the other player; Svcpp_Call_GetEncryptionState then reads DAVE
 * protocol 1, an epoch ≥ 1, no transition pending, no passthrough; the privacy code has 30 digits and the pairwise
 * fingerprint with the other player 45 (none with ourselves).
 *
 * Usage: capi_live_voice_call_rules <apiBase> <webBase> <caFile> <applicationId> <accessToken> <lobbySecret>
 *        <otherUserId> <lobbyIdOfAnotherLobby>
 * Prints "voice call rules: ok" and exits 0 when every check held (any failed check exits 1 naming the line).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "../check.h"
#include "../pump_until.h"

typedef struct {
    int ready;
    int failed;
} Connection;

typedef struct {
    int done;
    Svcpp_ErrorType type;
    uint64_t lobbyId;
} Completion;

typedef struct {
    Svcpp_Call_Status last;
    int connected;
} CallStatus;

static void SVCPP_CALL OnStatus(Svcpp_Client_Status status, Svcpp_Client_Error error, int32_t detail, void *userData) {
    Connection *c = (Connection *)userData;
    (void)detail;
    if (status == Svcpp_Client_Status_Ready) c->ready = 1;
    if (status == Svcpp_Client_Status_Disconnected && error != Svcpp_Client_Error_None) c->failed = 1;
}

static void SVCPP_CALL OnResult(Svcpp_ClientResult const *result, void *userData) {
    Completion *c = (Completion *)userData;
    c->type = Svcpp_ClientResult_Type(result);
    c->done = 1;
}

static void SVCPP_CALL OnLobby(Svcpp_ClientResult const *result, uint64_t lobbyId, void *userData) {
    Completion *c = (Completion *)userData;
    c->type = Svcpp_ClientResult_Type(result);
    c->lobbyId = lobbyId;
    c->done = 1;
}

static void SVCPP_CALL OnEnded(void *userData) { ((Completion *)userData)->done = 1; }

static void SVCPP_CALL OnCallStatus(Svcpp_Call_Status status, Svcpp_Call_Error error, int32_t detail, void *userData) {
    CallStatus *s = (CallStatus *)userData;
    (void)error;
    (void)detail;
    s->last = status;
    if (status == Svcpp_Call_Status_Connected) s->connected = 1;
}

static void SVCPP_CALL OnCaptured(int16_t *data, uint64_t samplesPerChannel, int32_t sampleRate, uint64_t channels,
                                  void *userData) {
    (void)data;
    (void)samplesPerChannel;
    (void)sampleRate;
    (void)channels;
    ((Counter *)userData)->calls++;
}

static void Connect(Svcpp_Client *client, char **argv) {
    Svcpp_ClientCreateOptions options = {NULL};
    Connection connection = {0, 0};
    Completion token = {0, Svcpp_ErrorType_None, 0};
    CHECK_OK(Svcpp_ClientCreateOptions_Init(&options));
    CHECK_OK(Svcpp_ClientCreateOptions_SetApiBase(&options, S(argv[1])));
    CHECK_OK(Svcpp_ClientCreateOptions_SetWebBase(&options, S(argv[2])));
    CHECK_OK(Svcpp_ClientCreateOptions_SetCaFile(&options, S(argv[3])));
    CHECK_OK(Svcpp_Client_InitWithOptions(client, &options));
    CHECK_OK(Svcpp_ClientCreateOptions_Drop(&options));
    CHECK_OK(Svcpp_Client_SetApplicationId(client, strtoull(argv[4], NULL, 10)));
    CHECK_OK(Svcpp_Client_SetStatusChangedCallback(client, OnStatus, NULL, &connection));
    CHECK_OK(Svcpp_Client_UpdateToken(client, Svcpp_AuthorizationTokenType_Bearer, S(argv[5]), OnResult, NULL, &token));
    PumpUntil(client, &token.done);
    CHECK_EQ_INT(token.type, Svcpp_ErrorType_None);
    CHECK_OK(Svcpp_Client_Connect(client));
    PumpUntil(client, &connection.ready);
    CHECK(!connection.failed);
}

static void UseNullDevices(Svcpp_Client *client) {
    Completion in = {0, Svcpp_ErrorType_None, 0}, out = {0, Svcpp_ErrorType_None, 0};
    CHECK_OK(Svcpp_Client_SetInputDevice(client, S("null"), OnResult, NULL, &in));
    CHECK_OK(Svcpp_Client_SetOutputDevice(client, S("null"), OnResult, NULL, &out));
    PumpUntil(client, &in.done);
    PumpUntil(client, &out.done);
}

static int Contains(Svcpp_UInt64Span ids, uint64_t id) {
    size_t i;
    for (i = 0; i < ids.size; i++)
        if (ids.ptr[i] == id) return 1;
    return 0;
}

/** Pumps until the lobby's CallInfoHandle lists `userId` (the voice states arrive as gateway dispatches). */
static void WaitForParticipant(Svcpp_Client *client, uint64_t lobbyId, uint64_t userId, Svcpp_CallInfoHandle *info) {
    struct timespec tick = {0, 2000000};
    int i;
    for (i = 0; i < 15000; i++) {
        Svcpp_LobbyHandle lobby = {NULL};
        CHECK_OK(Svcpp_Client_RunCallbacks(client));
        CHECK(Svcpp_Client_GetLobbyHandle(client, lobbyId, &lobby));
        if (Svcpp_LobbyHandle_GetCallInfoHandle(&lobby, info)) {
            Svcpp_UInt64Span ids = {NULL, 0};
            int found;
            CHECK_OK(Svcpp_CallInfoHandle_GetParticipants(info, &ids));
            found = Contains(ids, userId);
            CHECK_OK(Svcpp_UInt64Span_Drop(&ids));
            if (found) {
                CHECK_OK(Svcpp_LobbyHandle_Drop(&lobby));
                return;
            }
            CHECK_OK(Svcpp_CallInfoHandle_Drop(info));
        }
        CHECK_OK(Svcpp_LobbyHandle_Drop(&lobby));
        nanosleep(&tick, NULL);
    }
    CHECK(!"the lobby's call never listed the participant");
}

static void CallInfoBeforeJoining(Svcpp_Client *client, uint64_t lobbyId, uint64_t otherId, uint64_t selfId) {
    Svcpp_CallInfoHandle info = {NULL};
    Svcpp_VoiceStateHandle state = {NULL};
    Svcpp_UInt64Span ids = {NULL, 0};
    WaitForParticipant(client, lobbyId, otherId, &info);
    CHECK(Svcpp_CallInfoHandle_IsValid(&info));
    CHECK(Svcpp_CallInfoHandle_ChannelId(&info) == lobbyId);
    CHECK(Svcpp_CallInfoHandle_GuildId(&info) == 0);
    CHECK_OK(Svcpp_CallInfoHandle_GetParticipants(&info, &ids));
    CHECK(!Contains(ids, selfId)); /* this user has not joined */
    CHECK_OK(Svcpp_UInt64Span_Drop(&ids));
    CHECK(Svcpp_CallInfoHandle_GetVoiceStateHandle(&info, otherId, &state));
    CHECK(Svcpp_VoiceStateHandle_SelfMute(&state)); /* the other player joined self-muted */
    CHECK(!Svcpp_VoiceStateHandle_SelfDeaf(&state));
    CHECK_OK(Svcpp_VoiceStateHandle_Drop(&state));
    CHECK(!Svcpp_CallInfoHandle_GetVoiceStateHandle(&info, selfId, &state));
    CHECK(state.opaque == NULL);
    CHECK_OK(Svcpp_CallInfoHandle_Drop(&info));
}

static void NotAMember(Svcpp_Client *client, uint64_t strangerLobby) {
    Svcpp_Call call = {NULL};
    Svcpp_CallSpan calls = {NULL, 0};
    CHECK(!Svcpp_Client_StartCall(client, strangerLobby, &call));
    CHECK_LAST_ERROR_MENTIONS("not a member");
    CHECK(call.opaque == NULL);
    CHECK(!Svcpp_Client_GetCall(client, strangerLobby, &call));
    CHECK_OK(Svcpp_Client_GetCalls(client, &calls));
    CHECK_EQ_INT(calls.size, 0);
    CHECK_OK(Svcpp_CallSpan_Drop(&calls));
}

static void SecondStartCall(Svcpp_Client *client, uint64_t lobbyId) {
    Svcpp_Call again = {NULL};
    Svcpp_CallSpan calls = {NULL, 0};
    Counter captured = {0, 0};
    CHECK(!Svcpp_Client_StartCall(client, lobbyId, &again));
    CHECK_LAST_ERROR_MENTIONS("already in the call");
    CHECK(!Svcpp_Client_StartCallWithAudioCallbacks(client, lobbyId, NULL, NULL, NULL, OnCaptured, CountFree, &captured,
                                                    &again));
    CHECK_LAST_ERROR_MENTIONS("already in the call");
    CHECK(again.opaque == NULL);
    CHECK_EQ_INT(captured.frees + captured.calls, 0); /* rejected: the user data stayed ours, never called */
    CHECK_OK(Svcpp_Client_GetCalls(client, &calls));
    CHECK_EQ_INT(calls.size, 1);
    CHECK_OK(Svcpp_CallSpan_Drop(&calls));
}

static void Setters(Svcpp_Call *call, uint64_t otherId) {
    CHECK_OK(Svcpp_Call_SetParticipantVolume(call, otherId, 150.0f));
    CHECK_ERRC(Svcpp_Call_SetParticipantVolume(call, otherId, 200.5f), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("0..200");
    CHECK_ERRC(Svcpp_Call_SetParticipantVolume(call, otherId, -1.0f), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Call_SetParticipantVolume(call, otherId, (float)NAN), Svcpp_Errc_InvalidArgument);
    CHECK(Svcpp_Call_GetParticipantVolume(call, otherId) == 150.0f);
    CHECK_ERRC(Svcpp_Call_SetLocalMute(call, 0, true), Svcpp_Errc_InvalidArgument);
    CHECK(!Svcpp_Call_GetLocalMute(call, otherId));
    CHECK_OK(Svcpp_Call_SetVADThreshold(call, false, -40.0f));
    CHECK_ERRC(Svcpp_Call_SetVADThreshold(call, false, 0.5f), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Call_SetPTTReleaseDelay(call, 10001), Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(Svcpp_Call_GetPTTReleaseDelay(call), 0);
}

typedef struct {
    int changes;
    int settled; /* the last event said: DAVE 1, in a group, no transition pending */
} EncryptionEvents;

static void SVCPP_CALL OnEncryption(int32_t protocolVersion, uint64_t epoch, bool transitionPending, bool passthrough,
                                    void *userData) {
    EncryptionEvents *e = (EncryptionEvents *)userData;
    e->changes++;
    e->settled = protocolVersion == 1 && epoch >= 1 && !transitionPending && !passthrough;
}

static int AllDigits(Svcpp_String s, size_t length) {
    size_t i;
    if (s.ptr == NULL || s.size != length) return 0;
    for (i = 0; i < length; i++) {
        if (s.ptr[i] < '0' || s.ptr[i] > '9') return 0;
    }
    return 1;
}

static void Encryption(Svcpp_Client *client, Svcpp_Call *call, EncryptionEvents *events, uint64_t otherId,
                       uint64_t selfId) {
    Svcpp_CallEncryptionState state = {NULL};
    Svcpp_String code = {NULL, 0};
    PumpUntil(client, &events->settled);
    CHECK(events->changes >= 1);
    CHECK_OK(Svcpp_Call_GetEncryptionState(call, &state));
    CHECK_EQ_INT(Svcpp_CallEncryptionState_ProtocolVersion(&state), 1);
    CHECK(Svcpp_CallEncryptionState_Epoch(&state) >= 1);
    CHECK(!Svcpp_CallEncryptionState_TransitionPending(&state));
    CHECK(!Svcpp_CallEncryptionState_Passthrough(&state));
    CHECK_OK(Svcpp_CallEncryptionState_Drop(&state));
    CHECK_OK(Svcpp_Call_GetPrivacyCode(call, &code));
    CHECK(AllDigits(code, 30));
    Svcpp_Free((void *)code.ptr);
    CHECK_OK(Svcpp_Call_GetParticipantFingerprint(call, otherId, &code));
    CHECK(AllDigits(code, 45));
    Svcpp_Free((void *)code.ptr);
    CHECK_OK(Svcpp_Call_GetParticipantFingerprint(call, selfId, &code));
    CHECK(code.size == 0);
    Svcpp_Free((void *)code.ptr);
}

static void EndedAndDropped(Svcpp_Client *client, Svcpp_Call *call, uint64_t lobbyId, uint64_t otherId) {
    Svcpp_Call kept = {NULL};
    Completion ended = {0, Svcpp_ErrorType_None, 0};
    CHECK_OK(Svcpp_Call_Clone(&kept, call));
    CHECK_OK(Svcpp_Client_EndCall(client, lobbyId, OnEnded, NULL, &ended));
    PumpUntil(client, &ended.done);
    /* The call is over: every copy of its handle is invalid; setters say so, getters read defaults. */
    CHECK(!Svcpp_Call_IsValid(&kept));
    CHECK_ERRC(Svcpp_Call_SetSelfMute(&kept, true), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Call_SetParticipantVolume(&kept, otherId, 50.0f), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Call_SetLocalMute(&kept, otherId, true), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Call_SetAudioMode(&kept, Svcpp_AudioModeType_MODE_PTT), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(Svcpp_Call_GetStatus(&kept), Svcpp_Call_Status_Disconnected);
    CHECK(Svcpp_Call_GetParticipantVolume(&kept, otherId) == 0.0f);
    CHECK_OK(Svcpp_Call_Drop(&kept));
    CHECK(!Svcpp_Client_GetCall(client, lobbyId, &kept)); /* no call of that lobby any more */
    CHECK(kept.opaque == NULL);
    /* A dropped handle is zeroed: using it is InvalidHandle, never a crash. */
    CHECK_OK(Svcpp_Call_Drop(call));
    CHECK(call->opaque == NULL);
    CHECK_ERRC(Svcpp_Call_SetSelfDeaf(call, true), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Call_SetParticipantVolume(call, otherId, 50.0f), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Call_Drop(call), Svcpp_Errc_Ok); /* dropping twice is harmless */
}

int main(int argc, char **argv) {
    Svcpp_Client client = {NULL};
    Svcpp_Call call = {NULL};
    Completion joined = {0, Svcpp_ErrorType_None, 0};
    CallStatus status = {Svcpp_Call_Status_Disconnected, 0};
    EncryptionEvents encryption = {0, 0};
    Svcpp_UserHandle me = {NULL};
    uint64_t otherId, strangerLobby, selfId;
    if (argc != 9) {
        fprintf(stderr,
                "usage: %s <apiBase> <webBase> <caFile> <applicationId> <accessToken> <lobbySecret> <otherUserId> "
                "<otherLobbyId>\n",
                argv[0]);
        return 2;
    }
    otherId = strtoull(argv[7], NULL, 10);
    strangerLobby = strtoull(argv[8], NULL, 10);
    Connect(&client, argv);
    CHECK(Svcpp_Client_GetCurrentUserV2(&client, &me));
    selfId = Svcpp_UserHandle_Id(&me);
    CHECK_OK(Svcpp_UserHandle_Drop(&me));
    UseNullDevices(&client);
    CHECK_OK(Svcpp_Client_CreateOrJoinLobby(&client, S(argv[6]), OnLobby, NULL, &joined));
    PumpUntil(&client, &joined.done);
    CHECK_EQ_INT(joined.type, Svcpp_ErrorType_None);

    CallInfoBeforeJoining(&client, joined.lobbyId, otherId, selfId);
    NotAMember(&client, strangerLobby);

    CHECK(Svcpp_Client_StartCall(&client, joined.lobbyId, &call));
    CHECK_OK(Svcpp_Call_SetStatusChangedCallback(&call, OnCallStatus, NULL, &status));
    CHECK_OK(Svcpp_Call_SetEncryptionStateChangedCallback(&call, OnEncryption, NULL, &encryption));
    PumpUntil(&client, &status.connected);
    SecondStartCall(&client, joined.lobbyId);
    Setters(&call, otherId);
    {
        /* In the call now: the lobby's CallInfoHandle lists this user too. */
        Svcpp_CallInfoHandle info = {NULL};
        WaitForParticipant(&client, joined.lobbyId, selfId, &info);
        CHECK_OK(Svcpp_CallInfoHandle_Drop(&info));
    }
    Encryption(&client, &call, &encryption, otherId, selfId);
    EndedAndDropped(&client, &call, joined.lobbyId, otherId);

    CHECK_OK(Svcpp_Client_Drop(&client));
    puts("voice call rules: ok");
    return 0;
}
