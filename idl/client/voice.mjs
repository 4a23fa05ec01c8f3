// The Client's voice calls, audio devices and processing, end-to-end encryption (docs/voice.md): its part of the API
// surface (idl/surface.mjs assembles the areas).

/** Callbacks of this area (the vocabulary: idl/surface.mjs, above `callbacks`). */
export const callbacks = [
  // voice calls (docs/voice.md)
  {
    name: 'Call.OnStatusChanged',
    doc: 'The call status changed; error and errorDetail (voice close code or 0) say why when it is a failure.',
    params: [
      { name: 'status', type: 'enum:Call.Status' },
      { name: 'error', type: 'enum:Call.Error' },
      { name: 'errorDetail', type: 'i32' },
    ],
  },
  {
    name: 'Call.OnParticipantChanged',
    doc: 'A user joined (added) or left the call.',
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'added', type: 'bool' },
    ],
  },
  {
    name: 'Call.OnVoiceStateChanged',
    doc: "A participant's voice state (self mute/deaf) changed; read it with GetVoiceStateHandle.",
    params: [{ name: 'userId', type: 'u64' }],
  },
  {
    name: 'Call.OnSpeakingStatusChanged',
    doc: 'A participant started or stopped transmitting sound.',
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'isPlayingSound', type: 'bool' },
    ],
  },
  // end-to-end encryption (DAVE, docs/voice.md "End-to-end encryption"): svcpp additions
  {
    name: 'Call.OnEncryptionStateChanged',
    doc:
      "svcpp addition: the call's end-to-end encryption state " +
      'changed (read the whole of it with GetEncryptionState).',
    params: [
      { name: 'protocolVersion', type: 'i32' },
      { name: 'epoch', type: 'u64' },
      { name: 'transitionPending', type: 'bool' },
      { name: 'passthrough', type: 'bool' },
    ],
  },
  {
    name: 'Client.UserAudioReceivedCallback',
    doc:
      'Audio of one participant, decoded, before the SDK mixes it. ' +
      'Runs on the SDK Voice thread once per 10 ms frame\n' +
      '(no blocking, no allocation, no svcpp calls). ' +
      'data is interleaved 16-bit PCM the callback may change in place;\n' +
      "setting *outShouldMute keeps this frame out of the SDK's own mix (game-side mixing).",
    params: [
      { name: 'userId', type: 'u64' },
      { name: 'data', type: 'samples' },
      { name: 'samplesPerChannel', type: 'u64' },
      { name: 'sampleRate', type: 'i32' },
      { name: 'channels', type: 'u64' },
      { name: 'outShouldMute', type: 'boolref' },
    ],
    thread: 'sdk',
  },
  {
    name: 'Client.UserAudioCapturedCallback',
    doc:
      'Captured microphone audio before it is processed and sent. Runs on the SDK Voice thread once per 10 ms frame\n' +
      '(no blocking, no allocation, no svcpp calls); data is interleaved 16-bit PCM the callback may change in place.',
    params: [
      { name: 'data', type: 'samples' },
      { name: 'samplesPerChannel', type: 'u64' },
      { name: 'sampleRate', type: 'i32' },
      { name: 'channels', type: 'u64' },
    ],
    thread: 'sdk',
  },
  {
    name: 'Client.EndCallCallback',
    doc: 'EndCall finished: the call is Disconnected and its Call handles are invalid.',
    params: [],
  },
  { name: 'Client.EndCallsCallback', doc: 'EndCalls finished: every call is Disconnected.', params: [] },
  {
    name: 'Client.VoiceParticipantChangedCallback',
    doc: "A lobby member joined (added) or left the lobby's call; fires even when this user is not in the call.",
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'memberId', type: 'u64' },
      { name: 'added', type: 'bool' },
    ],
  },
  {
    name: 'Client.GetInputDevicesCallback',
    doc: 'The input devices (borrowed; Clone what you keep).',
    params: [{ name: 'devices', type: 'list:obj:AudioDevice' }],
  },
  {
    name: 'Client.GetOutputDevicesCallback',
    doc: 'The output devices (borrowed; Clone what you keep).',
    params: [{ name: 'devices', type: 'list:obj:AudioDevice' }],
  },
  {
    name: 'Client.GetCurrentInputDeviceCallback',
    doc: 'The input device in use.',
    params: [{ name: 'device', type: 'obj:AudioDevice' }],
  },
  {
    name: 'Client.GetCurrentOutputDeviceCallback',
    doc: 'The output device in use.',
    params: [{ name: 'device', type: 'obj:AudioDevice' }],
  },
  {
    name: 'Client.SetInputDeviceCallback',
    doc: 'SetInputDevice finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.SetOutputDeviceCallback',
    doc: 'SetOutputDevice finished.',
    params: [{ name: 'result', type: 'obj:ClientResult' }],
  },
  {
    name: 'Client.DeviceChangeCallback',
    doc: 'The set of audio devices changed (borrowed lists).',
    params: [
      { name: 'inputDevices', type: 'list:obj:AudioDevice' },
      { name: 'outputDevices', type: 'list:obj:AudioDevice' },
    ],
  },
  {
    name: 'Client.NoAudioInputCallback',
    doc:
      'While transmitting, the microphone level crossed the ' +
      'SetNoAudioInputThreshold (inputDetected false: below it).',
    params: [{ name: 'inputDetected', type: 'bool' }],
  },
];

/**
 * The core service the generated C layer calls for this file's methods (`client->Voice().<Name>`);
 * a method may name another with its own `area` (null: core::Client itself).
 */
export const area = 'voice';

/** Methods of Client in this area (the vocabulary: idl/surface.mjs, above `types`). */
export const methods = [
  // voice calls (docs/voice.md)
  {
    name: 'StartCall',
    params: [{ name: 'lobbyId', type: 'u64' }],
    returns: 'obj:Call',
    optional: true,
    doc:
      'Joins the voice call of a lobby this user is a member of (the client must be Ready). Absent, with the reason\n' +
      'in Svcpp_GetLastErrorMessage, when not Ready, not a member, or already in that call (GetCall returns it).',
  },
  {
    name: 'StartCallWithAudioCallbacks',
    params: [
      { name: 'lobbyId', type: 'u64' },
      { name: 'receivedCb', type: 'cb:Client.UserAudioReceivedCallback', nullable: true },
      { name: 'capturedCb', type: 'cb:Client.UserAudioCapturedCallback', nullable: true },
    ],
    returns: 'obj:Call',
    optional: true,
    doc:
      'StartCall with audio callbacks that run on the SDK Voice ' +
      'thread (see the callbacks). Same failures as StartCall.',
  },
  {
    name: 'GetCall',
    const: true,
    params: [{ name: 'channelId', type: 'u64' }],
    returns: 'obj:Call',
    optional: true,
    doc: 'The call of a lobby this user is in; absent otherwise.',
  },
  { name: 'GetCalls', const: true, returns: 'list:obj:Call', doc: 'Every call this user is in.' },
  {
    name: 'EndCall',
    params: [
      { name: 'channelId', type: 'u64' },
      { name: 'cb', type: 'cb:Client.EndCallCallback' },
    ],
    doc:
      'Leaves a call (Disconnecting, then Disconnected); ' +
      'cb runs once it is over (at once when there is no such call).',
  },
  {
    name: 'EndCalls',
    params: [{ name: 'cb', type: 'cb:Client.EndCallsCallback' }],
    doc: 'Leaves every call; cb runs once all are over.',
  },
  {
    name: 'SetVoiceParticipantChangedCallback',
    params: [{ name: 'cb', type: 'cb:Client.VoiceParticipantChangedCallback', nullable: true }],
    doc: "Single slot: who is in each lobby's call, even when this user is not. NULL clears it.",
  },
  { name: 'GetSelfMuteAll', const: true, returns: 'bool', doc: 'Every call is self-muted.' },
  {
    name: 'SetSelfMuteAll',
    params: [{ name: 'mute', type: 'bool' }],
    doc: "Self-mutes every call (overrides each call's own setting while true).",
  },
  { name: 'GetSelfDeafAll', const: true, returns: 'bool', doc: 'Every call is self-deafened.' },
  {
    name: 'SetSelfDeafAll',
    params: [{ name: 'deaf', type: 'bool' }],
    doc: "Self-deafens every call (overrides each call's own setting while true).",
  },
  // audio devices and processing
  {
    name: 'GetInputDevices',
    params: [{ name: 'cb', type: 'cb:Client.GetInputDevicesCallback' }],
    doc: 'Lists the input devices (null and file devices included).',
  },
  {
    name: 'GetOutputDevices',
    params: [{ name: 'cb', type: 'cb:Client.GetOutputDevicesCallback' }],
    doc: 'Lists the output devices (null and file devices included).',
  },
  {
    name: 'GetCurrentInputDevice',
    params: [{ name: 'cb', type: 'cb:Client.GetCurrentInputDeviceCallback' }],
    doc: 'The input device in use.',
  },
  {
    name: 'GetCurrentOutputDevice',
    params: [{ name: 'cb', type: 'cb:Client.GetCurrentOutputDeviceCallback' }],
    doc: 'The output device in use.',
  },
  {
    name: 'SetInputDevice',
    params: [
      { name: 'deviceId', type: 'string', max: 4096 },
      { name: 'cb', type: 'cb:Client.SetInputDeviceCallback' },
    ],
    doc:
      'Selects the microphone: an id of GetInputDevices, "null", or "file:<path of a WAV file>". An unknown id:\n' +
      'InvalidArgument now, nothing changed; a file that cannot be read: cb gets ValidationError.',
  },
  {
    name: 'SetOutputDevice',
    params: [
      { name: 'deviceId', type: 'string', max: 4096 },
      { name: 'cb', type: 'cb:Client.SetOutputDeviceCallback' },
    ],
    doc:
      'Selects the speakers: an id of GetOutputDevices, "null", ' +
      'or "file:<path of a WAV file to write>". Unknown id: InvalidArgument.',
  },
  {
    name: 'SetDeviceChangeCallback',
    params: [{ name: 'cb', type: 'cb:Client.DeviceChangeCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  { name: 'GetInputVolume', const: true, returns: 'f32', doc: 'Microphone volume 0..100 (default 100).' },
  {
    name: 'SetInputVolume',
    params: [{ name: 'inputVolume', type: 'f32' }],
    doc: 'Microphone volume 0..100; out of range or NaN: InvalidArgument.',
  },
  { name: 'GetOutputVolume', const: true, returns: 'f32', doc: 'Output volume 0..200 (default 100).' },
  {
    name: 'SetOutputVolume',
    params: [{ name: 'outputVolume', type: 'f32' }],
    doc: 'Output volume 0..200; out of range or NaN: InvalidArgument.',
  },
  {
    name: 'SetNoAudioInputThreshold',
    params: [{ name: 'dBFSThreshold', type: 'f32' }],
    doc:
      'Level (dBFS, -100..100; -100 = off, the default) ' +
      'under which the microphone counts as silent while transmitting.',
  },
  {
    name: 'SetNoAudioInputCallback',
    params: [{ name: 'cb', type: 'cb:Client.NoAudioInputCallback', nullable: true }],
    doc: 'Single slot. NULL clears it.',
  },
  {
    name: 'SetAutomaticGainControl',
    params: [{ name: 'on', type: 'bool' }],
    doc: 'Automatic gain control (default on; docs/voice.md says what processing is built in).',
  },
  { name: 'SetEchoCancellation', params: [{ name: 'on', type: 'bool' }], doc: 'Echo cancellation (default on).' },
  { name: 'SetNoiseSuppression', params: [{ name: 'on', type: 'bool' }], doc: 'Noise suppression (default on).' },
  {
    name: 'SetNoiseCancellation',
    params: [{ name: 'on', type: 'bool' }],
    doc: 'Stronger noise suppression (default off; no ML model in svcpp: the strongest suppression level).',
  },
  {
    name: 'SetOpusHardwareCoding',
    params: [
      { name: 'encode', type: 'bool' },
      { name: 'decode', type: 'bool' },
    ],
    doc: 'Accepted for compatibility: desktop Opus is always software.',
  },
  {
    name: 'SetAecDump',
    params: [{ name: 'on', type: 'bool' }],
    doc: 'Writes the microphone and speaker signals as WAV files into the voice log directory.',
  },
  {
    name: 'SetVoiceLogDir',
    params: [
      { name: 'path', type: 'string', max: 4096 },
      { name: 'minSeverity', type: 'enum:LoggingSeverity' },
    ],
    returns: 'bool',
    doc:
      'Writes voice engine log lines at or above minSeverity to ' +
      '<path>/svcpp-voice.log; false when it cannot be opened.',
  },
  {
    name: 'AddVoiceLogCallback',
    params: [
      { name: 'minSeverity', type: 'enum:LoggingSeverity' },
      { name: 'cb', type: 'cb:Client.LogCallback' },
    ],
    out: { name: 'token', type: 'u64' },
    doc: 'Additive: voice engine log lines at or above minSeverity. Remove with RemoveCallback(token).',
  },
  {
    name: 'SetEngineManagedAudioSession',
    params: [{ name: 'isEngineManaged', type: 'bool' }],
    doc: 'Mobile only: a no-op on desktop.',
  },
  { name: 'ShowAudioRoutePicker', returns: 'bool', doc: 'Mobile only: false on desktop.' },
  {
    name: 'SetSpeakerMode',
    params: [{ name: 'speakerMode', type: 'bool' }],
    returns: 'bool',
    doc: 'Deprecated (mobile): does nothing, returns false.',
  },
  {
    name: 'SetThreadPriority',
    area: null,
    ts: {
      name: 'setThreadPriority',
      kind: 'value',
      doc:
        "Sets the Linux nice value (-20..19, lower runs first) of the SDK's threads of a kind " +
        '(Client: I/O, Voice: audio,\n' +
        'Network: voice UDP), now and for threads started later. ' +
        'Out of range or an unknown thread: ERR_SVCPP_INVALID_ARGUMENT.\n' +
        'When the OS refuses (raising a priority needs CAP_SYS_NICE), ' +
        'the thread keeps its priority and a warning is logged.',
    },
    params: [
      { name: 'thread', type: 'enum:Client.Thread' },
      { name: 'priority', type: 'i32' },
    ],
    doc:
      "Priority of the SDK's threads of a kind (Client: the I/O thread; " +
      "Voice: the audio thread; Network: each call's UDP\n" +
      'thread), now and for threads started later: ' +
      'a Linux nice value -20..19 (lower runs first); out of range or an\n' +
      'unknown thread: InvalidArgument. Raising a priority needs ' +
      'CAP_SYS_NICE or RLIMIT_NICE: when the OS refuses, the\n' +
      'thread keeps its priority and a Warning is logged (native/SEMANTICS.md "Thread priority").',
  },
];
