// The voice area of a Client (docs/voice.md): calls, audio devices and processing, as the Client exposes them
// (client.startCall / getCall / getCalls / endCall / endCalls, and client.voice for devices and settings).
import type { NativeApi, NativeHandle } from '../../contract/native-api.js';
import { errcError } from '../errors.js';
import { resultError } from '../result.js';
import { Call } from './call.js';
import { takeAudioDevice, takeAudioDevices, type AudioDeviceSnapshot } from './devices.js';

/**
 * Audio listeners of startCall (N-API only; docs/voice.md "Audio callbacks"). They observe copies of the 10 ms frames
 * (48 kHz, stereo, interleaved Int16Array of 960 samples), delivered on the JavaScript thread through a bounded queue
 * of `queueFrames` frames (default 50 = 0.5 s): when JavaScript falls behind, the oldest frames are dropped — the
 * SDK's audio thread never waits for JavaScript.
 */
export interface CallAudioOptions {
  /** Each participant's decoded audio, before the SDK mixes it. */
  onReceived?: (userId: bigint, samples: Int16Array) => void;
  /** This user's microphone, before processing and sending. */
  onCaptured?: (samples: Int16Array) => void;
  queueFrames?: number;
}

/** The N-API addon's hand-written audio entry point (koffi has none: it would block the audio thread). */
interface AudioStreamApi {
  Client_StartCallWithAudioStream?(
    client: NativeHandle<'Client'>,
    lobbyId: bigint,
    onReceived: CallAudioOptions['onReceived'] | null,
    onCaptured: CallAudioOptions['onCaptured'] | null,
    queueFrames: number,
  ): NativeHandle<'Call'> | undefined;
}

/** What the area needs from its Client: the live handle, and promises that keep the event loop alive. */
export interface VoiceAreaHost {
  api: NativeApi;
  live(): NativeHandle<'Client'>;
  pending<T>(body: (handle: NativeHandle<'Client'>, settle: (outcome: () => T) => void) => void): Promise<T>;
}

export class VoiceArea {
  #host: VoiceAreaHost;

  /** @internal */
  constructor(host: VoiceAreaHost) {
    this.#host = host;
  }

  get #api(): NativeApi {
    return this.#host.api;
  }

  /**
   * Joins the call of a lobby (the client must be Ready and a member): throws ERR_SVCPP_CALL_REFUSED with the reason
   * otherwise. Audio listeners need the N-API backend (ERR_SVCPP_NOT_SUPPORTED on koffi).
   */
  startCall(lobbyId: bigint, audio: CallAudioOptions = {}): Call {
    let handle: NativeHandle<'Call'> | undefined;
    if (audio.onReceived || audio.onCaptured) {
      const start = (this.#api as NativeApi & AudioStreamApi).Client_StartCallWithAudioStream;
      if (!start)
        throw errcError(
          7,
          'startCall: audio listeners need the N-API backend (koffi cannot call JavaScript from the audio thread without blocking it)',
        );
      handle = start(
        this.#host.live(),
        lobbyId,
        audio.onReceived ?? null,
        audio.onCaptured ?? null,
        audio.queueFrames ?? 50,
      );
    } else {
      handle = this.#api.Client_StartCall(this.#host.live(), lobbyId);
    }
    if (!handle) {
      const message = this.#api.GetLastErrorMessage();
      throw Object.assign(new Error(message || `startCall(${lobbyId}) failed`), { code: 'ERR_SVCPP_CALL_REFUSED' });
    }
    return new Call(this.#api, handle);
  }

  getCall(lobbyId: bigint): Call | undefined {
    const handle = this.#api.Client_GetCall(this.#host.live(), lobbyId);
    return handle && new Call(this.#api, handle);
  }

  getCalls(): Call[] {
    return this.#api.Client_GetCalls(this.#host.live()).map((h) => new Call(this.#api, h));
  }

  /** Leaves a call; resolves once it is Disconnected. */
  endCall(lobbyId: bigint): Promise<void> {
    return this.#host.pending((handle, settle) =>
      this.#api.Client_EndCall(handle, lobbyId, () => settle(() => undefined)),
    );
  }

  endCalls(): Promise<void> {
    return this.#host.pending((handle, settle) => this.#api.Client_EndCalls(handle, () => settle(() => undefined)));
  }

  /**
   * Who joins or leaves the call of each of the user's lobbies, even calls this user is not in (a single listener;
   * null removes it).
   */
  onVoiceParticipantChanged(listener: ((lobbyId: bigint, memberId: bigint, added: boolean) => void) | null): void {
    this.#api.Client_SetVoiceParticipantChangedCallback(this.#host.live(), listener);
  }

  get selfMuteAll(): boolean {
    return this.#api.Client_GetSelfMuteAll(this.#host.live());
  }
  set selfMuteAll(mute: boolean) {
    this.#api.Client_SetSelfMuteAll(this.#host.live(), mute);
  }
  get selfDeafAll(): boolean {
    return this.#api.Client_GetSelfDeafAll(this.#host.live());
  }
  set selfDeafAll(deaf: boolean) {
    this.#api.Client_SetSelfDeafAll(this.#host.live(), deaf);
  }

  // ---- devices (snapshots) ----

  getInputDevices(): Promise<AudioDeviceSnapshot[]> {
    return this.#host.pending((handle, settle) =>
      this.#api.Client_GetInputDevices(handle, (list) => settle(() => takeAudioDevices(this.#api, list))),
    );
  }
  getOutputDevices(): Promise<AudioDeviceSnapshot[]> {
    return this.#host.pending((handle, settle) =>
      this.#api.Client_GetOutputDevices(handle, (list) => settle(() => takeAudioDevices(this.#api, list))),
    );
  }
  getCurrentInputDevice(): Promise<AudioDeviceSnapshot> {
    return this.#host.pending((handle, settle) =>
      this.#api.Client_GetCurrentInputDevice(handle, (d) => settle(() => takeAudioDevice(this.#api, d))),
    );
  }
  getCurrentOutputDevice(): Promise<AudioDeviceSnapshot> {
    return this.#host.pending((handle, settle) =>
      this.#api.Client_GetCurrentOutputDevice(handle, (d) => settle(() => takeAudioDevice(this.#api, d))),
    );
  }
  /**
   * Selects the microphone: a device id, "null" or "file:<wav path>". Unknown id: throws ERR_SVCPP_INVALID_ARGUMENT.
   */
  setInputDevice(deviceId: string): Promise<void> {
    return this.#resultOperation((handle, cb) => this.#api.Client_SetInputDevice(handle, deviceId, cb));
  }
  /** Selects the speakers: a device id, "null" or "file:<wav path to write>". */
  setOutputDevice(deviceId: string): Promise<void> {
    return this.#resultOperation((handle, cb) => this.#api.Client_SetOutputDevice(handle, deviceId, cb));
  }

  /** 0..100 (default 100). */
  get inputVolume(): number {
    return this.#api.Client_GetInputVolume(this.#host.live());
  }
  set inputVolume(volume: number) {
    this.#api.Client_SetInputVolume(this.#host.live(), volume);
  }
  /** 0..200 (default 100). */
  get outputVolume(): number {
    return this.#api.Client_GetOutputVolume(this.#host.live());
  }
  set outputVolume(volume: number) {
    this.#api.Client_SetOutputVolume(this.#host.live(), volume);
  }
  setNoAudioInputThreshold(dbfs: number): void {
    this.#api.Client_SetNoAudioInputThreshold(this.#host.live(), dbfs);
  }
  setAutomaticGainControl(on: boolean): void {
    this.#api.Client_SetAutomaticGainControl(this.#host.live(), on);
  }
  setEchoCancellation(on: boolean): void {
    this.#api.Client_SetEchoCancellation(this.#host.live(), on);
  }
  setNoiseSuppression(on: boolean): void {
    this.#api.Client_SetNoiseSuppression(this.#host.live(), on);
  }

  #resultOperation(
    start: (handle: NativeHandle<'Client'>, cb: (result: NativeHandle<'ClientResult'>) => void) => void,
  ): Promise<void> {
    return this.#host.pending((handle, settle) =>
      start(handle, (result) =>
        settle(() => {
          const error = resultError(this.#api, result);
          this.#api.ClientResult_Drop(result);
          if (error) throw error;
        }),
      ),
    );
  }
}
