// ClientBase: the native client handle under the Client and everything that is not one SDK method — creation and
// close, the event-loop ref, the promise plumbing over native completions (protected, for the generated methods in
// lib/generated/client-methods.ts and the hand-written ones in lib/client.ts), and the native event registrations
// that exist only while an event has listeners.
import { ClientStatus, type ClientError, LoggingSeverity } from '../../contract/enums.js';
import type { NativeApi, NativeHandle } from '../../contract/native-api.js';
import { CONNECTION_EVENT_SETTERS } from '../connection.js';
import { closedError } from '../errors.js';
import { type BackendName, loadBackend } from '../loader.js';
import { LOBBY_EVENT_SETTERS } from '../lobbies.js';
import { applyLocalClientOptions, LOCAL_CLIENT_EVENT_SETTERS } from '../local-client.js';
import { MESSAGE_EVENT_SETTERS } from '../messages.js';
import type { EventSetter } from '../native-events.js';
import { INVITE_EVENT_SETTERS } from '../presence.js';
import { RELATIONSHIP_EVENT_SETTERS } from '../relationships.js';
import { resultError } from '../result.js';
import { TypedEventEmitter } from '../typed-emitter.js';
import { VoiceArea } from '../voice/voice-area.js';
import type { ClientEvents, ClientOptions, TokenResponse } from './types.js';
import type { AuthorizationTokenType } from '../../contract/enums.js';

/** Single-slot events of the area files (social layer), registered from their setter tables. */
const AREA_EVENT_SETTERS_TYPED = {
  ...RELATIONSHIP_EVENT_SETTERS,
  ...INVITE_EVENT_SETTERS,
  ...MESSAGE_EVENT_SETTERS,
  ...LOBBY_EVENT_SETTERS,
  ...CONNECTION_EVENT_SETTERS,
  ...LOCAL_CLIENT_EVENT_SETTERS,
};
type AreaEvent = keyof typeof AREA_EVENT_SETTERS_TYPED;
const AREA_EVENT_SETTERS = AREA_EVENT_SETTERS_TYPED as unknown as Record<string, EventSetter<unknown[]> | undefined>;

/**
 * The events whose native registration exists only while they have listeners ('statusChanged' is always registered).
 */
const NATIVE_EVENTS = [
  'log',
  'userUpdated',
  'tokenExpiring',
  'authorizeRequest',
  ...(Object.keys(AREA_EVENT_SETTERS_TYPED) as AreaEvent[]),
] as const;
type NativeEvent = (typeof NATIVE_EVENTS)[number];
const isNativeEvent = (event: string | symbol): event is NativeEvent =>
  (NATIVE_EVENTS as readonly (string | symbol)[]).includes(event);

/** The handle, lifetime and plumbing half of Client (the SDK methods are in its subclasses). */
export abstract class ClientBase extends TypedEventEmitter<ClientEvents> {
  readonly backend: BackendName;
  #api: NativeApi;
  #handle: NativeHandle<'Client'> | undefined;
  #logToken: bigint | undefined;
  #logMinSeverity: LoggingSeverity;
  #userRef = true;
  #pumpRefd = false;
  /** Promises waiting for a native completion: while any is pending the client keeps the event loop alive. */
  #pending = 0;
  /** Internal status observers (connect()/disconnect() promises). */
  #statusWaiters = new Map<
    (status: ClientStatus, error: ClientError, detail: number) => void,
    (error: unknown) => void
  >();

  constructor(options: ClientOptions = {}) {
    super();
    this.backend = options.backend ?? 'napi';
    this.#api = loadBackend(this.backend);
    this.#logMinSeverity = options.logMinSeverity ?? LoggingSeverity.Info;
    this.#handle = this.#create(options);
    try {
      if (options.applicationId !== undefined) this.applicationId = options.applicationId;
      if (options.httpRequestTimeoutMs !== undefined) this.httpRequestTimeoutMs = options.httpRequestTimeoutMs;
    } catch (error) {
      this.#api.Client_Drop(this.#handle);
      this.#handle = undefined;
      throw error;
    }
    // The status callback is always registered: connect()/disconnect() and the event-loop ref depend on it.
    this.#api.Client_SetStatusChangedCallback(this.#handle, (status, error, detail) =>
      this.#onStatus(status, error, detail),
    );
    this.on('newListener', (event: string | symbol) => {
      if (isNativeEvent(event) && this.listenerCount(event) === 0) this.#register(event);
    });
    this.on('removeListener', (event: string | symbol) => {
      if (isNativeEvent(event) && this.listenerCount(event) === 0) this.#unregister(event);
    });
  }

  #create(options: ClientOptions): NativeHandle<'Client'> {
    const api = this.#api;
    const createOptions = api.ClientCreateOptions_Init();
    try {
      if (options.apiBase !== undefined) api.ClientCreateOptions_SetApiBase(createOptions, options.apiBase);
      if (options.webBase !== undefined) api.ClientCreateOptions_SetWebBase(createOptions, options.webBase);
      if (options.caFile !== undefined) api.ClientCreateOptions_SetCaFile(createOptions, options.caFile);
      if (options.cpuAffinityMask !== undefined)
        api.ClientCreateOptions_SetCpuAffinityMask(createOptions, options.cpuAffinityMask);
      applyLocalClientOptions(api, createOptions, options);
      if (options.experimentalAudioSystem !== undefined) {
        api.ClientCreateOptions_SetExperimentalAudioSystem(createOptions, options.experimentalAudioSystem);
      }
      if (options.androidPreventCommsForBluetooth !== undefined) {
        api.ClientCreateOptions_SetExperimentalAndroidPreventCommsForBluetooth(
          createOptions,
          options.androidPreventCommsForBluetooth,
        );
      }
      return api.Client_InitWithOptions(createOptions);
    } finally {
      api.ClientCreateOptions_Drop(createOptions);
    }
  }

  // ---- setup ----

  /** The application id (bigint), 0n until set. It is the default clientId of AuthorizationArgs. */
  get applicationId(): bigint {
    return this.#api.Client_GetApplicationId(this.live());
  }

  set applicationId(value: bigint) {
    this.#api.Client_SetApplicationId(this.live(), value);
  }

  /** Timeout of each HTTP request in ms (default 30000); < 1 throws ERR_SVCPP_INVALID_ARGUMENT. */
  get httpRequestTimeoutMs(): number {
    return this.#api.Client_GetHttpRequestTimeout(this.live());
  }

  set httpRequestTimeoutMs(value: number) {
    this.#api.Client_SetHttpRequestTimeout(this.live(), value);
  }

  get status(): ClientStatus {
    return this.#api.Client_GetStatus(this.live());
  }

  /** The live native handle, or ERR_SVCPP_CLOSED. */
  protected live(): NativeHandle<'Client'> {
    if (!this.#handle) throw closedError('Client');
    return this.#handle;
  }

  /** Minimum severity of 'log' events; changing it re-registers the native log callback. */
  get logMinSeverity(): LoggingSeverity {
    return this.#logMinSeverity;
  }
  set logMinSeverity(value: LoggingSeverity) {
    const handle = this.live();
    if (this.#logToken === undefined) {
      this.#logMinSeverity = value;
      return;
    }
    // Register the new one first: if the value is rejected the old registration stays.
    const token = this.#api.Client_AddLogCallback(handle, value, (message, severity) =>
      this.emit('log', message, severity),
    );
    this.#api.Client_RemoveCallback(handle, this.#logToken);
    this.#logToken = token;
    this.#logMinSeverity = value;
  }

  // ---- event loop ----

  /** Keep the process alive while this client has listeners or pending work (the default). */
  ref(): this {
    this.#userRef = true;
    this.#updatePumpRef();
    return this;
  }

  /** Never keep the process alive because of this client. */
  unref(): this {
    this.#userRef = false;
    this.#updatePumpRef();
    return this;
  }

  get closed(): boolean {
    return this.#handle === undefined;
  }

  /** Drops the native client (pending callbacks are completed, registrations freed). Idempotent. */
  async close(): Promise<void> {
    const handle = this.#handle;
    if (!handle) return;
    // Drop completes every pending operation (ClientDestroyed) synchronously: their promises reject now.
    this.#api.Client_Drop(handle);
    this.#handle = undefined;
    this.#logToken = undefined;
    // connect()/disconnect() promises would never see another status: they end now.
    for (const reject of this.#statusWaiters.values()) reject(closedError('Client'));
    this.#statusWaiters.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- promises over native completions ----

  /**
   * A promise that keeps the event loop alive while pending. `body` gets the live handle and `settle`, which
   * ends the promise exactly once (later calls are ignored); a throw from `body` (misuse: SvcppError from the
   * C ABI) rejects it.
   */
  #voice: VoiceArea | undefined;
  /** Voice calls, devices and audio settings (lib/voice/voice-area.ts). */
  get voice(): VoiceArea {
    return (this.#voice ??= new VoiceArea({
      api: this.#api,
      live: () => this.live(),
      pending: (body) => this.#pendingPromise(body),
    }));
  }

  #pendingPromise<T>(body: (handle: NativeHandle<'Client'>, settle: (outcome: () => T) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => T) => {
        if (settled) return;
        settled = true;
        this.#pending -= 1;
        this.#updatePumpRef();
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        }
      };
      let handle: NativeHandle<'Client'>;
      try {
        handle = this.live();
      } catch (error) {
        reject(error);
        return;
      }
      this.#pending += 1;
      this.#updatePumpRef();
      try {
        body(handle, settle);
      } catch (error) {
        settle(() => {
          throw error;
        });
      }
    });
  }

  /**
   * A promise over one native operation: `start` makes the native call; its callback hands the ClientResult
   * to `settle`, which rejects with SvcppResultError or resolves with `value()`.
   */
  protected operation<T>(
    start: (
      handle: NativeHandle<'Client'>,
      api: NativeApi,
      settle: (result: NativeHandle<'ClientResult'>, value: () => T) => void,
    ) => void,
  ): Promise<T> {
    const api = this.#api;
    return this.#pendingPromise<T>((handle, settle) =>
      start(handle, api, (result, value) =>
        settle(() => {
          const error = resultError(api, result);
          api.ClientResult_Drop(result);
          if (error) throw error;
          return value();
        }),
      ),
    );
  }

  /**
   * An #operation whose callback hands over native handles: `take` snapshots and drops them before the promise
   * settles, so a failed result does not leave them to the garbage collector.
   */
  protected snapshotOperation<H, T>(
    start: (
      handle: NativeHandle<'Client'>,
      api: NativeApi,
      cb: (result: NativeHandle<'ClientResult'>, handles: H) => void,
    ) => void,
    take: (api: NativeApi, handles: H) => T,
  ): Promise<T> {
    return this.operation<T>((handle, api, settle) =>
      start(handle, api, (result, handles) => {
        let value: () => T;
        try {
          const snapshot = take(api, handles);
          value = () => snapshot;
        } catch (error) {
          value = () => {
            throw error;
          };
        }
        settle(result, value);
      }),
    );
  }

  /** An #operation whose callback carries only the ClientResult. */
  protected voidOperation(
    start: (handle: NativeHandle<'Client'>, api: NativeApi, cb: (result: NativeHandle<'ClientResult'>) => void) => void,
  ): Promise<void> {
    return this.operation((handle, api, settle) => start(handle, api, (result) => settle(result, () => undefined)));
  }

  protected tokenOperation(
    start: (
      handle: NativeHandle<'Client'>,
      api: NativeApi,
      cb: (
        result: NativeHandle<'ClientResult'>,
        accessToken: string,
        refreshToken: string,
        tokenType: AuthorizationTokenType,
        expiresIn: number,
        scopes: string,
      ) => void,
    ) => void,
  ): Promise<TokenResponse> {
    return this.operation((handle, api, settle) =>
      start(handle, api, (result, accessToken, refreshToken, tokenType, expiresIn, scopes) =>
        settle(result, () => ({ accessToken, refreshToken: refreshToken || undefined, tokenType, expiresIn, scopes })),
      ),
    );
  }

  /** Calls `start`, then settles when `done` says so for a status change (true resolves; a throw rejects). */
  protected untilStatus(
    done: (status: ClientStatus, error: ClientError, detail: number) => boolean,
    start: (handle: NativeHandle<'Client'>, api: NativeApi) => void,
  ): Promise<void> {
    return this.#pendingPromise<void>((handle, settle) => {
      const waiter = (status: ClientStatus, error: ClientError, detail: number) => {
        let finished: boolean;
        try {
          finished = done(status, error, detail);
        } catch (failure) {
          finished = true;
          settle(() => {
            throw failure;
          });
        }
        if (!finished) return;
        this.#statusWaiters.delete(waiter);
        settle(() => undefined);
      };
      // close() ends waiters that can never see another status.
      this.#statusWaiters.set(waiter, (error) =>
        settle(() => {
          throw error;
        }),
      );
      try {
        start(handle, this.#api);
      } catch (error) {
        this.#statusWaiters.delete(waiter);
        throw error;
      }
    });
  }

  #onStatus(status: ClientStatus, error: ClientError, detail: number): void {
    for (const waiter of [...this.#statusWaiters.keys()]) waiter(status, error, detail);
    this.#updatePumpRef();
    this.emit('statusChanged', status, error, detail);
  }

  // ---- native registrations ----

  #register(event: NativeEvent): void {
    const handle = this.#handle;
    if (!handle) return; // listeners on a closed client simply never fire
    const api = this.#api;
    const areaSetter = AREA_EVENT_SETTERS[event];
    if (areaSetter) {
      areaSetter(api, handle, (...args: unknown[]) =>
        this.emit(event as keyof ClientEvents & string, ...(args as never)),
      );
    } else if (event === 'log') {
      this.#logToken = api.Client_AddLogCallback(handle, this.#logMinSeverity, (message, severity) =>
        this.emit('log', message, severity),
      );
    } else if (event === 'userUpdated') {
      api.Client_SetUserUpdatedCallback(handle, (userId, user) => this.emit('userUpdated', userId, user)); // the snapshot is the face's UserSnapshot
    } else if (event === 'tokenExpiring') {
      api.Client_SetTokenExpirationCallback(handle, () => this.emit('tokenExpiring'));
    } else {
      api.Client_RegisterAuthorizeRequestCallback(handle, () => this.emit('authorizeRequest'));
    }
    this.#updatePumpRef(true); // 'newListener' fires before the listener is added
  }

  #unregister(event: NativeEvent): void {
    const handle = this.#handle;
    if (!handle) return;
    const api = this.#api;
    const areaSetter = AREA_EVENT_SETTERS[event];
    if (areaSetter) {
      areaSetter(api, handle, null);
    } else if (event === 'log' && this.#logToken !== undefined) {
      api.Client_RemoveCallback(handle, this.#logToken);
      this.#logToken = undefined;
    } else if (event === 'userUpdated') {
      api.Client_SetUserUpdatedCallback(handle, null);
    } else if (event === 'tokenExpiring') {
      api.Client_SetTokenExpirationCallback(handle, null);
    } else if (event === 'authorizeRequest') {
      api.Client_RemoveAuthorizeRequestCallback(handle);
    }
    this.#updatePumpRef();
  }

  #updatePumpRef(addingListener = false): void {
    const handle = this.#handle;
    if (!handle) return;
    const hasListeners =
      addingListener || [...NATIVE_EVENTS, 'statusChanged'].some((event) => this.listenerCount(event) > 0);
    // Like a socket: alive while connected, while a promise waits for the SDK, or while someone listens.
    const busy = this.#pending > 0 || this.#api.Client_GetStatus(handle) !== ClientStatus.Disconnected;
    const want = this.#userRef && (hasListeners || busy);
    if (want === this.#pumpRefd) return;
    this.#api.Client_SetPumpRef(handle, want);
    this.#pumpRefd = want;
  }

  /** The backend's functions (N-API or koffi). */
  protected get api(): NativeApi {
    return this.#api;
  }
}
