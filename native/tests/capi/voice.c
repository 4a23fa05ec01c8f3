/*
 * Voice calls and audio devices at the C ABI without a connection (docs/voice.md "Bad input"): every rule that can
 * be broken before a call exists, each rejected synchronously with nothing changed and the callback's user data
 * left with the caller:
 *   StartCall / StartCallWithAudioCallbacks before Ready or on a lobby the user is not in → false + last error;
 *   input volume outside 0..100, output volume outside 0..200, NaN → InvalidArgument, old value kept;
 *   an unknown device id → InvalidArgument; a file device whose WAV cannot be read → ValidationError result;
 *   no-audio-input threshold outside -100..100 → InvalidArgument;
 *   a zeroed Call handle → InvalidHandle; EndCall of no call completes at once; device lists include "null";
 *   SetThreadPriority with an unknown thread or a priority outside the nice range -20..19 → InvalidArgument;
 *   a zeroed CallInfoHandle reads defaults;
 *   the encryption surface (svcpp additions): NULL out → NullArgument; a zeroed or NULL Call → InvalidHandle, out
 * untouched, the callback's user data left with the caller. The rules that need a live call (participant volume, second
 * StartCall, not a member, setters on an ended call, the lobby's CallInfoHandle) run against the real platform in
 * live/voice_call_rules.c (test/e2e/capi-voice-call.test.ts starts the platform and runs it).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "check.h"
#include "pump_until.h"

typedef struct {
    Counter c;
    Svcpp_ErrorType type;
    int sawNull;
    int done;
} Seen;

static void SVCPP_CALL OnReceived(uint64_t userId, int16_t *data, uint64_t samplesPerChannel, int32_t sampleRate,
                                  uint64_t channels, bool *outShouldMute, void *userData) {
    (void)userId;
    (void)data;
    (void)samplesPerChannel;
    (void)sampleRate;
    (void)channels;
    (void)outShouldMute;
    ((Counter *)userData)->calls++;
}

static void SVCPP_CALL OnCaptured(int16_t *data, uint64_t samplesPerChannel, int32_t sampleRate, uint64_t channels,
                                  void *userData) {
    (void)data;
    (void)samplesPerChannel;
    (void)sampleRate;
    (void)channels;
    ((Counter *)userData)->calls++;
}

static void SVCPP_CALL OnDeviceResult(Svcpp_ClientResult const *result, void *userData) {
    Seen *seen = (Seen *)userData;
    seen->type = Svcpp_ClientResult_Type(result);
    seen->c.calls++;
    seen->done = 1;
}

static void SVCPP_CALL OnDevices(Svcpp_AudioDeviceSpan devices, void *userData) {
    Seen *seen = (Seen *)userData;
    size_t i;
    for (i = 0; i < devices.size; i++) {
        Svcpp_String id = {NULL, 0};
        CHECK_OK(Svcpp_AudioDevice_Id(&devices.ptr[i], &id));
        if (StrEq(id, "null")) seen->sawNull = 1;
        Svcpp_Free(id.ptr);
    }
    seen->c.calls++;
    seen->done = 1;
}

static void SVCPP_CALL OnEnded(void *userData) {
    Seen *seen = (Seen *)userData;
    seen->c.calls++;
    seen->done = 1;
}

static void StartCallBeforeReady(Svcpp_Client *client) {
    Svcpp_Call call = {NULL};
    Counter received = {0, 0}, captured = {0, 0};
    CHECK(!Svcpp_Client_StartCall(client, 42, &call));
    CHECK_LAST_ERROR_MENTIONS("not Ready");
    CHECK(call.opaque == NULL);
    CHECK(!Svcpp_Client_StartCallWithAudioCallbacks(client, 42, OnReceived, CountFree, &received, OnCaptured, CountFree,
                                                    &captured, &call));
    CHECK_LAST_ERROR_MENTIONS("not Ready");
    /* Rejected: the user data stays the caller's, nothing was called. */
    CHECK_EQ_INT(received.frees, 0);
    CHECK_EQ_INT(captured.frees, 0);
    CHECK_EQ_INT(received.calls + captured.calls, 0);
    CHECK(!Svcpp_Client_GetCall(client, 42, &call));
    {
        Svcpp_CallSpan calls = {NULL, 0};
        CHECK_OK(Svcpp_Client_GetCalls(client, &calls));
        CHECK_EQ_INT(calls.size, 0);
        CHECK_OK(Svcpp_CallSpan_Drop(&calls));
    }
}

static void Volumes(Svcpp_Client *client) {
    CHECK(Svcpp_Client_GetInputVolume(client) == 100.0f);
    CHECK(Svcpp_Client_GetOutputVolume(client) == 100.0f);
    CHECK_OK(Svcpp_Client_SetInputVolume(client, 40.0f));
    CHECK_ERRC(Svcpp_Client_SetInputVolume(client, 100.5f), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("0..100");
    CHECK_ERRC(Svcpp_Client_SetInputVolume(client, -1.0f), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetInputVolume(client, (float)NAN), Svcpp_Errc_InvalidArgument);
    CHECK(Svcpp_Client_GetInputVolume(client) == 40.0f);
    CHECK_OK(Svcpp_Client_SetOutputVolume(client, 200.0f));
    CHECK_ERRC(Svcpp_Client_SetOutputVolume(client, 200.5f), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("0..200");
    CHECK_ERRC(Svcpp_Client_SetOutputVolume(client, (float)INFINITY), Svcpp_Errc_InvalidArgument);
    CHECK(Svcpp_Client_GetOutputVolume(client) == 200.0f);
    CHECK_OK(Svcpp_Client_SetNoAudioInputThreshold(client, -40.0f));
    CHECK_ERRC(Svcpp_Client_SetNoAudioInputThreshold(client, 100.5f), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetNoAudioInputThreshold(client, -101.0f), Svcpp_Errc_InvalidArgument);
}

static void Devices(Svcpp_Client *client) {
    Seen seen;
    memset(&seen, 0, sizeof seen);
    CHECK_OK(Svcpp_Client_GetInputDevices(client, OnDevices, CountFree, &seen));
    PumpUntil(client, &seen.done);
    CHECK(seen.sawNull);
    CHECK_EQ_INT(seen.c.frees, 1);

    /* Unknown id: InvalidArgument now, the callback never runs and its user data stays ours. */
    memset(&seen, 0, sizeof seen);
    CHECK_ERRC(Svcpp_Client_SetInputDevice(client, S("no-such-device-xyz"), OnDeviceResult, CountFree, &seen),
               Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("no-such-device-xyz");
    CHECK_ERRC(Svcpp_Client_SetOutputDevice(client, S("no-such-device-xyz"), OnDeviceResult, CountFree, &seen),
               Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetInputDevice(client, S("file:"), OnDeviceResult, CountFree, &seen),
               Svcpp_Errc_InvalidArgument);
    CHECK_EQ_INT(seen.c.calls + seen.c.frees, 0);

    /* A file device that cannot be read: ValidationError through the pump. */
    CHECK_OK(Svcpp_Client_SetInputDevice(client, S("file:/nonexistent/svcpp-voice-test.wav"), OnDeviceResult, CountFree,
                                         &seen));
    PumpUntil(client, &seen.done);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_ValidationError);
    CHECK_EQ_INT(seen.c.frees, 1);

    /* The null device is always there. */
    memset(&seen, 0, sizeof seen);
    CHECK_OK(Svcpp_Client_SetInputDevice(client, S("null"), OnDeviceResult, CountFree, &seen));
    PumpUntil(client, &seen.done);
    CHECK_EQ_INT(seen.type, Svcpp_ErrorType_None);
}

static void SVCPP_CALL OnEncryption(int32_t protocolVersion, uint64_t epoch, bool transitionPending, bool passthrough,
                                    void *userData) {
    (void)protocolVersion, (void)epoch, (void)transitionPending, (void)passthrough;
    ((Counter *)userData)->calls++;
}

static void EncryptionSurface(Svcpp_Call *zero) {
    Svcpp_CallEncryptionState state = {NULL};
    Svcpp_String code = {NULL, 0};
    Counter c;
    memset(&c, 0, sizeof c);
    CHECK_ERRC(Svcpp_Call_GetEncryptionState(zero, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Call_GetPrivacyCode(zero, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Call_GetEncryptionState(zero, &state), Svcpp_Errc_InvalidHandle);
    CHECK(state.opaque == NULL);
    CHECK_ERRC(Svcpp_Call_GetPrivacyCode(zero, &code), Svcpp_Errc_InvalidHandle);
    CHECK(code.ptr == NULL);
    CHECK_ERRC(Svcpp_Call_GetEncryptionState(NULL, &state), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Call_SetEncryptionStateChangedCallback(zero, OnEncryption, CountFree, &c),
               Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(c.frees, 0); /* refused: the user data stays with the caller */
    CHECK_EQ_INT(c.calls, 0);

    /* The frame cryptor's counters (svcpp additions): 0 on a dead or null call. */
    CHECK(Svcpp_Call_GetParticipantFramesDecrypted(zero, 7) == 0);
    CHECK(Svcpp_Call_GetParticipantFramesPassedThrough(zero, 7) == 0);
    CHECK(Svcpp_Call_GetParticipantFramesDropped(zero, 7) == 0);
    CHECK(Svcpp_Call_GetParticipantFramesDropped(NULL, 7) == 0);
    CHECK(Svcpp_Call_GetParticipantFramesPlayed(zero, 7) == 0);
    CHECK(Svcpp_Call_GetParticipantFramesPlayed(NULL, 7) == 0);
    CHECK(Svcpp_Call_GetFramesEncrypted(zero) == 0);
    CHECK(Svcpp_Call_GetFramesEncrypted(NULL) == 0);

    /* The pairwise verification fingerprint (svcpp addition): refused on a dead call, nothing written. */
    Svcpp_String fingerprint = {NULL, 0};
    CHECK_ERRC(Svcpp_Call_GetParticipantFingerprint(zero, 7, NULL), Svcpp_Errc_NullArgument);
    CHECK_ERRC(Svcpp_Call_GetParticipantFingerprint(zero, 7, &fingerprint), Svcpp_Errc_InvalidHandle);
    CHECK(fingerprint.ptr == NULL);
    CHECK_ERRC(Svcpp_Call_GetParticipantFingerprint(NULL, 7, &fingerprint), Svcpp_Errc_InvalidHandle);
}

static void CallHandles(Svcpp_Client *client) {
    Svcpp_Call zero = {NULL};
    Seen seen;
    CHECK(!Svcpp_Call_IsValid(&zero));
    CHECK_ERRC(Svcpp_Call_SetSelfMute(&zero, true), Svcpp_Errc_InvalidHandle);
    CHECK_ERRC(Svcpp_Call_SetParticipantVolume(&zero, 7, 50.0f), Svcpp_Errc_InvalidHandle);
    CHECK_EQ_INT(Svcpp_Call_GetStatus(&zero), Svcpp_Call_Status_Disconnected);
    EncryptionSurface(&zero);
    /* EndCall of a lobby without a call completes at once. */
    memset(&seen, 0, sizeof seen);
    CHECK_OK(Svcpp_Client_EndCall(client, 42, OnEnded, CountFree, &seen));
    PumpUntil(client, &seen.done);
    CHECK_EQ_INT(seen.c.frees, 1);
    /* Client-wide mute and deafen are plain settings before any call. */
    CHECK(!Svcpp_Client_GetSelfMuteAll(client));
    CHECK_OK(Svcpp_Client_SetSelfMuteAll(client, true));
    CHECK(Svcpp_Client_GetSelfMuteAll(client));
    CHECK_OK(Svcpp_Client_SetSelfDeafAll(client, true));
    CHECK(Svcpp_Client_GetSelfDeafAll(client));
    /* Desktop: the mobile-only controls do nothing. */
    CHECK(!Svcpp_Client_ShowAudioRoutePicker(client));
    CHECK(!Svcpp_Client_SetSpeakerMode(client, true));
}

static void ThreadPriority(Svcpp_Client *client) {
    Svcpp_Client zero = {NULL};
    CHECK_ERRC(Svcpp_Client_SetThreadPriority(client, (Svcpp_Client_Thread)3, 0), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("thread");
    CHECK_ERRC(Svcpp_Client_SetThreadPriority(client, (Svcpp_Client_Thread)-1, 0), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetThreadPriority(client, Svcpp_Client_Thread_Network, 20), Svcpp_Errc_InvalidArgument);
    CHECK_LAST_ERROR_MENTIONS("-20..19");
    CHECK_ERRC(Svcpp_Client_SetThreadPriority(client, Svcpp_Client_Thread_Voice, -21), Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetThreadPriority(client, Svcpp_Client_Thread_Voice, INT32_MIN),
               Svcpp_Errc_InvalidArgument);
    CHECK_ERRC(Svcpp_Client_SetThreadPriority(&zero, Svcpp_Client_Thread_Voice, 0), Svcpp_Errc_InvalidHandle);
    /* In range: accepted (no voice thread runs yet; it starts with this priority). */
    CHECK_OK(Svcpp_Client_SetThreadPriority(client, Svcpp_Client_Thread_Voice, 4));
    CHECK_OK(Svcpp_Client_SetThreadPriority(client, Svcpp_Client_Thread_Network, 19));
}

static void ZeroCallInfo(void) {
    Svcpp_CallInfoHandle zero = {NULL};
    Svcpp_UInt64Span ids = {NULL, 0};
    Svcpp_VoiceStateHandle state = {NULL};
    CHECK(!Svcpp_CallInfoHandle_IsValid(&zero));
    CHECK(Svcpp_CallInfoHandle_ChannelId(&zero) == 0);
    CHECK(Svcpp_CallInfoHandle_GuildId(&zero) == 0);
    CHECK_ERRC(Svcpp_CallInfoHandle_GetParticipants(&zero, &ids), Svcpp_Errc_InvalidHandle);
    CHECK(!Svcpp_CallInfoHandle_GetVoiceStateHandle(&zero, 7, &state));
    CHECK(state.opaque == NULL);
}

int main(void) {
    Svcpp_Client client = {NULL};
    CHECK_OK(Svcpp_Client_Init(&client));
    StartCallBeforeReady(&client);
    Volumes(&client);
    Devices(&client);
    CallHandles(&client);
    ThreadPriority(&client);
    ZeroCallInfo();
    CHECK_OK(Svcpp_Client_Drop(&client));
    puts("voice: ok");
    return 0;
}
