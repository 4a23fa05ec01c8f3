// The Client: one class over either backend. It adapts only: options -> ClientCreateOptions, native
// callbacks -> typed events, handles -> snapshots, misuse -> SvcppError. No protocol logic lives here.
import { AudioSystem, ClientError, ClientStatus, LoggingSeverity } from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import type { AuthorizationCodeChallengeInit } from './authorization.js';
import { closedError } from './errors.js';
import { type BackendName, loadBackend } from './loader.js';
import { TypedEventEmitter } from './typed-emitter.js';

export interface ClientOptions {
  /** 'napi' (default; callbacks drained by a wakeup hook) or 'koffi' (pure FFI; drained by a 16 ms timer). */
  backend?: BackendName;
  /** Base URL of the HTTP API (default: the local platform). */
  apiBase?: string;
  /** Base URL of the web pages (OAuth2 consent). */
  webBase?: string;
  /** PEM file of extra trusted CAs (a local platform with a self-signed certificate). */
  caFile?: string;
  /** Pins SDK threads to these CPUs (bit n = CPU n). */
  cpuAffinityMask?: bigint;
  experimentalAudioSystem?: AudioSystem;
  androidPreventCommsForBluetooth?: boolean;
  /** The application id (a bigint snowflake). */
  applicationId?: bigint;
  /** Timeout of each HTTP request in ms (default 30000, must be >= 1). */
  httpRequestTimeoutMs?: number;
  /** Minimum severity of 'log' events (default Info). */
  logMinSeverity?: LoggingSeverity;
}

export type ClientEvents = {
  /** A log line of the SDK at or above `logMinSeverity`. */
  log: [message: string, severity: LoggingSeverity];
  /** The connection status changed; error/errorDetail say why when it is a failure. */
  statusChanged: [status: ClientStatus, error: ClientError, errorDetail: number];
};

/** A fresh PKCE pair: send `challenge` with authorize(), keep `verifier` for the token exchange. */
export interface AuthorizationCodeVerifierSnapshot {
  verifier: string;
  challenge: AuthorizationCodeChallengeInit;
}

/** The events whose native registration exists only while they have listeners. */
const NATIVE_EVENTS = ['log', 'statusChanged'] as const;
type NativeEvent = (typeof NATIVE_EVENTS)[number];
const isNativeEvent = (event: string | symbol): event is NativeEvent => (NATIVE_EVENTS as readonly (string | symbol)[]).includes(event);

/**
 * The root object of the SDK. Ids are `bigint` (64-bit snowflakes do not fit a JS number).
 *
 * Event-loop behaviour is like a socket's: the client keeps the process alive only while it has event
 * listeners (or, later, pending operations); `unref()` opts out, `ref()` opts back in. `close()` (or
 * `await using`) releases everything and the process can exit by itself.
 */
export class Client extends TypedEventEmitter<ClientEvents> {
  readonly backend: BackendName;
  #api: NativeApi;
  #handle: NativeHandle<'Client'> | undefined;
  #logToken: bigint | undefined;
  #logMinSeverity: LoggingSeverity;
  #userRef = true;
  #pumpRefd = false;

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
      if (options.cpuAffinityMask !== undefined) api.ClientCreateOptions_SetCpuAffinityMask(createOptions, options.cpuAffinityMask);
      if (options.experimentalAudioSystem !== undefined) {
        api.ClientCreateOptions_SetExperimentalAudioSystem(createOptions, options.experimentalAudioSystem);
      }
      if (options.androidPreventCommsForBluetooth !== undefined) {
        api.ClientCreateOptions_SetExperimentalAndroidPreventCommsForBluetooth(createOptions, options.androidPreventCommsForBluetooth);
      }
      return api.Client_InitWithOptions(createOptions);
    } finally {
      api.ClientCreateOptions_Drop(createOptions);
    }
  }

  /** The live native handle, or ERR_SVCPP_CLOSED. */
  #live(): NativeHandle<'Client'> {
    if (!this.#handle) throw closedError('Client');
    return this.#handle;
  }

  // ---- static helpers ----

  /** "openid sdk.social_layer" (default backend). */
  static get defaultCommunicationScopes(): string {
    return loadBackend().Client_GetDefaultCommunicationScopes();
  }

  /** "openid sdk.social_layer_presence" (default backend). */
  static get defaultPresenceScopes(): string {
    return loadBackend().Client_GetDefaultPresenceScopes();
  }

  /** Version of the native library. */
  static get version(): { major: number; minor: number; patch: number; hash: string } {
    const api = loadBackend();
    return {
      major: api.Client_GetVersionMajor(),
      minor: api.Client_GetVersionMinor(),
      patch: api.Client_GetVersionPatch(),
      hash: api.Client_GetVersionHash(),
    };
  }

  // ---- setup ----

  /** The application id (bigint), 0n until set. It is the default clientId of AuthorizationArgs. */
  get applicationId(): bigint {
    return this.#api.Client_GetApplicationId(this.#live());
  }
  set applicationId(value: bigint) {
    this.#api.Client_SetApplicationId(this.#live(), value);
  }

  /** Timeout of each HTTP request in ms (default 30000); < 1 throws ERR_SVCPP_INVALID_ARGUMENT. */
  get httpRequestTimeoutMs(): number {
    return this.#api.Client_GetHttpRequestTimeout(this.#live());
  }
  set httpRequestTimeoutMs(value: number) {
    this.#api.Client_SetHttpRequestTimeout(this.#live(), value);
  }

  get status(): ClientStatus {
    return this.#api.Client_GetStatus(this.#live());
  }

  /** Minimum severity of 'log' events; changing it re-registers the native log callback. */
  get logMinSeverity(): LoggingSeverity {
    return this.#logMinSeverity;
  }
  set logMinSeverity(value: LoggingSeverity) {
    const handle = this.#live();
    if (this.#logToken === undefined) {
      this.#logMinSeverity = value;
      return;
    }
    // Register the new one first: if the value is rejected the old registration stays.
    const token = this.#api.Client_AddLogCallback(handle, value, (message, severity) => this.emit('log', message, severity));
    this.#api.Client_RemoveCallback(handle, this.#logToken);
    this.#logToken = token;
    this.#logMinSeverity = value;
  }

  // ---- authentication ----

  /** A fresh PKCE S256 pair (snapshot; nothing native is kept). */
  createAuthorizationCodeVerifier(): AuthorizationCodeVerifierSnapshot {
    const api = this.#api;
    const pair = api.Client_CreateAuthorizationCodeVerifier(this.#live());
    try {
      const challenge = api.AuthorizationCodeVerifier_Challenge(pair);
      try {
        return {
          verifier: api.AuthorizationCodeVerifier_Verifier(pair),
          challenge: { method: api.AuthorizationCodeChallenge_Method(challenge), challenge: api.AuthorizationCodeChallenge_Challenge(challenge) },
        };
      } finally {
        api.AuthorizationCodeChallenge_Drop(challenge);
      }
    } finally {
      api.AuthorizationCodeVerifier_Drop(pair);
    }
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
    this.#api.Client_Drop(handle);
    this.#handle = undefined;
    this.#logToken = undefined;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- native registrations ----

  #register(event: NativeEvent): void {
    const handle = this.#handle;
    if (!handle) return; // listeners on a closed client simply never fire
    if (event === 'log') {
      this.#logToken = this.#api.Client_AddLogCallback(handle, this.#logMinSeverity, (message, severity) => this.emit('log', message, severity));
    } else {
      this.#api.Client_SetStatusChangedCallback(handle, (status, error, detail) => this.emit('statusChanged', status, error, detail));
    }
    this.#updatePumpRef(true); // 'newListener' fires before the listener is added
  }

  #unregister(event: NativeEvent): void {
    const handle = this.#handle;
    if (!handle) return;
    if (event === 'log' && this.#logToken !== undefined) {
      this.#api.Client_RemoveCallback(handle, this.#logToken);
      this.#logToken = undefined;
    } else if (event === 'statusChanged') {
      this.#api.Client_SetStatusChangedCallback(handle, null);
    }
    this.#updatePumpRef();
  }

  #updatePumpRef(addingListener = false): void {
    const handle = this.#handle;
    if (!handle) return;
    const hasListeners = addingListener || NATIVE_EVENTS.some((event) => this.listenerCount(event) > 0);
    const want = this.#userRef && hasListeners;
    if (want === this.#pumpRefd) return;
    this.#api.Client_SetPumpRef(handle, want);
    this.#pumpRefd = want;
  }
}
