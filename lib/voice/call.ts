// A lobby voice call (docs/voice.md): status, participants and local audio controls over a native Call handle, with
// typed events. The native callbacks are registered once, when the Call object is made, and run on the client's
// pump like every other event. After the call is over (status Disconnected) getters return defaults and setters
// throw ERR_SVCPP_INVALID_HANDLE; close() releases the handle.
import { AudioModeType, CallError, CallStatus } from '../../contract/enums.js';
import type { NativeApi, NativeHandle } from '../../contract/native-api.js';
import { TypedEventEmitter } from '../typed-emitter.js';
import type { VoiceStateSnapshot } from '../../contract/snapshots.js';
import type { EncryptionState } from '../../contract/snapshots.js';
export type { EncryptionState } from '../../contract/snapshots.js';
export type { VoiceStateSnapshot } from '../../contract/snapshots.js';

export type CallEvents = {
  /** The status changed; error and errorDetail (the voice close code, when one applies) say why on failures. */
  statusChanged: [status: CallStatus, error: CallError, errorDetail: number];
  /** A user joined (added) or left the call. */
  participantChanged: [userId: bigint, added: boolean];
  /** A participant started or stopped transmitting sound (this user included). */
  speakingChanged: [userId: bigint, speaking: boolean];
  /** A participant's voice state (self mute / deaf) changed: read it with getVoiceState(). */
  voiceStateChanged: [userId: bigint];
  /** svcpp addition: the end-to-end encryption state changed (docs/voice.md "End-to-end encryption"). */
  encryptionStateChanged: [state: EncryptionState];
};

/** svcpp addition: what the DAVE frame cryptor did with one participant's audio frames (counters that only grow). */
export interface DecryptStats {
  /** Encrypted frames decrypted (they go on to the jitter buffer and the mixer). */
  framesDecrypted: bigint;
  /** Frames accepted in clear: the Opus silence frame, or any frame during passthrough. */
  framesPassedThrough: bigint;
  /** Frames refused: no key for their epoch or generation, failed authentication, replayed, too old, or in clear. */
  framesDropped: bigint;
  /**
   * Frames played out: taken from the jitter buffer in turn and decoded from their own packet (not concealed, not
   * rebuilt from FEC), or an Opus silence frame the jitter buffer skipped to bring its delay back to the target (played
   * as the silence it carries, only shorter). Decrypted and passed-through frames that were not played were lost after
   * decryption (late, or speech skipped past the jitter buffer's 500 ms bound).
   */
  framesPlayed: bigint;
}

/** The voice-activity threshold of a call. */
export interface VadThreshold {
  automatic: boolean;
  /** dBFS, -100..0 (used when not automatic). */
  threshold: number;
}

export class Call extends TypedEventEmitter<CallEvents> {
  #api: NativeApi;
  #handle: NativeHandle<'Call'> | undefined;
  /** The lobby of the call (kept after close()). */
  readonly lobbyId: bigint;

  /** @internal Made by Client.startCall / getCall; takes ownership of the handle. */
  constructor(api: NativeApi, handle: NativeHandle<'Call'>) {
    super();
    this.#api = api;
    this.#handle = handle;
    this.lobbyId = api.Call_GetChannelId(handle);
    if (!api.Call_IsValid(handle)) return; // already over: no events will come
    api.Call_SetStatusChangedCallback(handle, (status, error, detail) =>
      this.emit('statusChanged', status, error, detail),
    );
    api.Call_SetParticipantChangedCallback(handle, (userId, added) => this.emit('participantChanged', userId, added));
    api.Call_SetSpeakingStatusChangedCallback(handle, (userId, speaking) =>
      this.emit('speakingChanged', userId, speaking),
    );
    api.Call_SetOnVoiceStateChangedCallback(handle, (userId) => this.emit('voiceStateChanged', userId));
    api.Call_SetEncryptionStateChangedCallback(handle, (protocolVersion, epoch, transitionPending, passthrough) =>
      this.emit('encryptionStateChanged', { protocolVersion, epoch, transitionPending, passthrough }),
    );
  }

  #live(): NativeHandle<'Call'> {
    if (!this.#handle) throw Object.assign(new Error('Call: closed'), { code: 'ERR_SVCPP_CLOSED' });
    return this.#handle;
  }

  /** False once the call is over (or this object was closed). */
  get isValid(): boolean {
    return this.#handle !== undefined && this.#api.Call_IsValid(this.#handle);
  }
  get status(): CallStatus {
    return this.#api.Call_GetStatus(this.#live());
  }
  /** The users in the call, this user included once the platform has its voice state. */
  get participants(): bigint[] {
    return this.#api.Call_GetParticipants(this.#live());
  }
  getVoiceState(userId: bigint): VoiceStateSnapshot | undefined {
    const handle = this.#api.Call_GetVoiceStateHandle(this.#live(), userId);
    return handle && this.#api.VoiceStateHandle_Snapshot(handle, true);
  }

  get selfMute(): boolean {
    return this.#api.Call_GetSelfMute(this.#live());
  }
  set selfMute(mute: boolean) {
    this.#api.Call_SetSelfMute(this.#live(), mute);
  }
  /** Deafened: nothing is played and nothing is sent. */
  get selfDeaf(): boolean {
    return this.#api.Call_GetSelfDeaf(this.#live());
  }
  set selfDeaf(deaf: boolean) {
    this.#api.Call_SetSelfDeaf(this.#live(), deaf);
  }
  getLocalMute(userId: bigint): boolean {
    return this.#api.Call_GetLocalMute(this.#live(), userId);
  }
  /** Mutes a participant for this user only. */
  setLocalMute(userId: bigint, mute: boolean): void {
    this.#api.Call_SetLocalMute(this.#live(), userId, mute);
  }
  getParticipantVolume(userId: bigint): number {
    return this.#api.Call_GetParticipantVolume(this.#live(), userId);
  }
  /** 0..200 (100 = unity); out of range throws ERR_SVCPP_INVALID_ARGUMENT and changes nothing. */
  setParticipantVolume(userId: bigint, volume: number): void {
    this.#api.Call_SetParticipantVolume(this.#live(), userId, volume);
  }
  get audioMode(): AudioModeType {
    return this.#api.Call_GetAudioMode(this.#live());
  }
  set audioMode(mode: AudioModeType) {
    this.#api.Call_SetAudioMode(this.#live(), mode);
  }
  /** Push-to-talk key held (audioMode MODE_PTT); the game owns the key binding. */
  get pttActive(): boolean {
    return this.#api.Call_GetPTTActive(this.#live());
  }
  set pttActive(active: boolean) {
    this.#api.Call_SetPTTActive(this.#live(), active);
  }
  /** Milliseconds the microphone stays open after the PTT key is released (0..10000). */
  get pttReleaseDelayMs(): number {
    return this.#api.Call_GetPTTReleaseDelay(this.#live());
  }
  set pttReleaseDelayMs(ms: number) {
    this.#api.Call_SetPTTReleaseDelay(this.#live(), ms);
  }
  get vadThreshold(): VadThreshold {
    // One crossing (the generated snapshot); the face names the threshold `threshold`, the C ABI `VadThreshold`.
    const { automatic, vadThreshold } = this.#api.VADThresholdSettings_Snapshot(
      this.#api.Call_GetVADThreshold(this.#live()),
      true,
    );
    return { automatic, threshold: vadThreshold };
  }
  /** Automatic, or a manual threshold in dBFS -100..0 (out of range throws ERR_SVCPP_INVALID_ARGUMENT). */
  setVadThreshold(automatic: boolean, threshold = -60): void {
    this.#api.Call_SetVADThreshold(this.#live(), automatic, threshold);
  }

  /** svcpp addition: the end-to-end encryption state, a snapshot (all zero/false once the call is over). */
  get encryptionState(): EncryptionState {
    const handle = this.#api.Call_GetEncryptionState(this.#live());
    return this.#api.CallEncryptionState_Snapshot(handle, true);
  }
  /**
   * svcpp addition: the call's 30-digit privacy code for the current epoch — the same for every member, so players
   * can compare it out of band; '' before this user holds the group.
   */
  get privacyCode(): string {
    return this.#api.Call_GetPrivacyCode(this.#live());
  }
  /**
   * svcpp addition: the DAVE frame cryptor's counters for the frames received from `userId` in this call — why a
   * participant is silent (all zero for a user never heard, and once the call is over).
   */
  participantDecryptStats(userId: bigint): DecryptStats {
    const handle = this.#live();
    return {
      framesDecrypted: this.#api.Call_GetParticipantFramesDecrypted(handle, userId),
      framesPassedThrough: this.#api.Call_GetParticipantFramesPassedThrough(handle, userId),
      framesDropped: this.#api.Call_GetParticipantFramesDropped(handle, userId),
      framesPlayed: this.#api.Call_GetParticipantFramesPlayed(handle, userId),
    };
  }
  /**
   * svcpp addition: the 45-digit verification fingerprint of this user and `userId` — DAVE's pairwise fingerprint of
   * both users' MLS signature keys, the same on both sides, for players to compare out of band. '' when either is not
   * in the call's group (or `userId` is this user). Costs tens of milliseconds (scrypt).
   */
  participantFingerprint(userId: bigint): string {
    return this.#api.Call_GetParticipantFingerprint(this.#live(), userId);
  }
  /**
   * svcpp addition: this user's audio frames sent as DAVE ciphertext in this call (not the silence frames sent in
   * clear, nor frames dropped while this user holds no group, e.g. alone in the call).
   */
  get framesEncrypted(): bigint {
    return this.#api.Call_GetFramesEncrypted(this.#live());
  }

  /** Resolves with the next status change to `status` (rejects when the call ends in another status first). */
  waitForStatus(status: CallStatus): Promise<void> {
    if (this.#handle && this.status === status) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = (next: CallStatus, error: CallError, detail: number) => {
        if (next === status) {
          this.off('statusChanged', listener);
          resolve();
        } else if (next === CallStatus.Disconnected) {
          this.off('statusChanged', listener);
          reject(
            Object.assign(new Error(`call ended: ${CallError[error]} (${detail})`), {
              code: 'ERR_SVCPP_CALL_ENDED',
              error,
              detail,
            }),
          );
        }
      };
      this.on('statusChanged', listener);
    });
  }

  /** Releases the native handle (the call itself goes on: end it with client.endCall). */
  close(): void {
    const handle = this.#handle;
    if (!handle) return;
    this.#handle = undefined;
    this.#api.Call_Drop(handle);
  }
}
