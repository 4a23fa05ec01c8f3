// The Client: one class over either backend. It adapts only: options -> ClientCreateOptions, native
// callbacks -> typed events, handles -> snapshots, misuse -> SvcppError. No protocol logic lives here.
import {
  AudioSystem, AuthenticationExternalAuthType, AuthorizationTokenType, ClientError, ClientStatus, ErrorType, HttpStatusCode, LoggingSeverity,
  type RelationshipGroupType, type StatusType,
} from './generated/enums.js';
import type { NativeApi, NativeHandle } from './generated/native-api.js';
import { AuthorizationArgs, type AuthorizationArgsInit, type AuthorizationCodeChallengeInit } from './authorization.js';
import { CONNECTION_EVENT_SETTERS, takeConnectionFailure, type ConnectionEvents, type ConnectionFailureSnapshot } from './connection.js';
import { closedError, SvcppConnectionError, type SvcppConnectionErrorCode } from './errors.js';
import { type BackendName, loadBackend } from './loader.js';
import { resultError, SvcppResultError } from './result.js';
import { TypedEventEmitter } from './typed-emitter.js';
import { takeGuildChannelSnapshots, takeGuildSnapshots, type GuildChannelSnapshot, type GuildSnapshot } from './guilds.js';
import { takeUserSnapshot, type UserSnapshot } from './users.js';
import {
  type CreateOrJoinLobbyOptions, LOBBY_EVENT_SETTERS, type LobbyEvents, type LobbySnapshot, takeLobbySnapshot,
} from './lobbies.js';
import {
  type ChannelSnapshot, MESSAGE_EVENT_SETTERS, type MessageEvents, type MessageSnapshot, takeChannelSnapshot, takeMessageSnapshot,
  takeMessageSnapshots, takeSummarySnapshots, type UserMessageSummarySnapshot,
} from './messages.js';
import type { EventSetter } from './native-events.js';
import type { Call } from './voice/call.js';
import { VoiceArea, type CallAudioOptions } from './voice/voice-area.js';
import {
  RELATIONSHIP_EVENT_SETTERS, type RelationshipEvents, takeRelationshipSnapshot, takeRelationshipSnapshots, type RelationshipSnapshot,
} from './relationships.js';
import { INVITE_EVENT_SETTERS, type InviteEvents, toNativeActivity, toNativeInvite, type Activity, type ActivityInvite } from './presence.js';

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

export type ClientEvents = MessageEvents & LobbyEvents & RelationshipEvents & InviteEvents & ConnectionEvents & {
  /** A log line of the SDK at or above `logMinSeverity`. */
  log: [message: string, severity: LoggingSeverity];
  /** The connection status changed; error/errorDetail say why when it is a failure. */
  statusChanged: [status: ClientStatus, error: ClientError, errorDetail: number];
  /** A cached user changed (name, avatar, status); read it with getUser(userId). */
  userUpdated: [userId: bigint];
  /** The token given to updateToken() expires soon or was rejected: refresh it and call updateToken() again. */
  tokenExpiring: [];
  /** The platform asks the game to start account linking (call authorize()). */
  authorizeRequest: [];
};

/** A token response. Tokens are secrets: never log them. */
export interface TokenResponse {
  accessToken: string;
  /** undefined when none was issued (provisional and child tokens). */
  refreshToken: string | undefined;
  tokenType: AuthorizationTokenType;
  /** Seconds until the access token expires. */
  expiresIn: number;
  /** Space-separated granted scopes. */
  scopes: string;
}

/** The outcome of authorize(): exchange `code` with getToken() (plus the PKCE verifier) at `redirectUri`. */
export interface AuthorizationResult {
  code: string;
  redirectUri: string;
}

export interface AuthorizeOptions {
  /** Aborts the pending authorization (the promise rejects with ERR_SVCPP_ABORTED). */
  signal?: AbortSignal;
  /**
   * Opens the authorize page (an Electron launcher's BrowserWindow, a test's HTTP client). Without it the SDK
   * opens the system browser.
   */
  openUrl?: (url: string) => void;
}

/** A provisional-account credential: what GetProvisionalToken, merges and unmerges take. */
export interface ExternalAuth {
  externalAuthType: AuthenticationExternalAuthType;
  externalAuthToken: string;
}

/** A fresh PKCE pair: send `challenge` with authorize(), keep `verifier` for the token exchange. */
export interface AuthorizationCodeVerifierSnapshot {
  verifier: string;
  challenge: AuthorizationCodeChallengeInit;
}

/** Single-slot events of the area files (social layer), registered from their setter tables. */
const AREA_EVENT_SETTERS_TYPED = {
  ...RELATIONSHIP_EVENT_SETTERS, ...INVITE_EVENT_SETTERS, ...MESSAGE_EVENT_SETTERS, ...LOBBY_EVENT_SETTERS, ...CONNECTION_EVENT_SETTERS,
};
type AreaEvent = keyof typeof AREA_EVENT_SETTERS_TYPED;
const AREA_EVENT_SETTERS = AREA_EVENT_SETTERS_TYPED as unknown as Record<string, EventSetter<unknown[]> | undefined>;

/** The events whose native registration exists only while they have listeners ('statusChanged' is always registered). */
const NATIVE_EVENTS = ['log', 'userUpdated', 'tokenExpiring', 'authorizeRequest', ...Object.keys(AREA_EVENT_SETTERS_TYPED) as AreaEvent[]] as const;
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
  /** Promises waiting for a native completion: while any is pending the client keeps the event loop alive. */
  #pending = 0;
  /** Internal status observers (connect()/disconnect() promises). */
  #statusWaiters = new Map<(status: ClientStatus, error: ClientError, detail: number) => void, (error: unknown) => void>();
  /** Voice calls, devices and audio settings (lib/voice/voice-area.ts). */
  #voice: VoiceArea | undefined;
  get voice(): VoiceArea {
    return this.#voice ??= new VoiceArea({ api: this.#api, live: () => this.#live(), pending: (body) => this.#pendingPromise(body) });
  }

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
    this.#api.Client_SetStatusChangedCallback(this.#handle, (status, error, detail) => this.#onStatus(status, error, detail));
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

  /**
   * Runs the OAuth2 authorization code flow: a loopback redirect listener on 127.0.0.1, the authorize page
   * opened through `options.openUrl` (else the system browser). Resolves with the code; send a PKCE challenge
   * in `args.codeChallenge` and exchange the code with getToken().
   */
  authorize(args: AuthorizationArgs | AuthorizationArgsInit = {}, options: AuthorizeOptions = {}): Promise<AuthorizationResult> {
    const { signal, openUrl } = options;
    if (signal?.aborted) return Promise.reject(abortedError('the signal was already aborted'));
    return this.#operation<AuthorizationResult>((handle, api, settle) => {
      const owned = args instanceof AuthorizationArgs ? undefined : new AuthorizationArgs(args, { backend: this.backend });
      const onAbort = () => this.abortAuthorize();
      try {
        api.Client_SetAuthorizeUrlCallback(handle, openUrl ? (url) => openUrl(url) : null);
        api.Client_Authorize(handle, (owned ?? (args as AuthorizationArgs)).handle, (result, code, redirectUri) => {
          signal?.removeEventListener('abort', onAbort);
          settle(result, () => ({ code, redirectUri }));
        });
        signal?.addEventListener('abort', onAbort, { once: true });
      } finally {
        owned?.dispose();
      }
    });
  }

  /** Ends a pending authorize() with ERR_SVCPP_ABORTED. */
  abortAuthorize(): void {
    this.#api.Client_AbortAuthorize(this.#live());
  }

  /** Completes an authorize() that uses `customSchemeParam` with the redirect URL the app received. */
  handleAuthorizeRedirect(url: string): void {
    this.#api.Client_HandleAuthorizeRedirect(this.#live(), url);
  }

  /** Exchanges an authorization code (PKCE verifier, public client) for tokens. */
  getToken(args: { applicationId?: bigint; code: string; codeVerifier: string; redirectUri: string }): Promise<TokenResponse> {
    return this.#tokenOperation((handle, api, cb) =>
      api.Client_GetToken(handle, args.applicationId ?? 0n, args.code, args.codeVerifier, args.redirectUri, cb));
  }

  /** Signs in a provisional account with an external credential. */
  getProvisionalToken(args: ExternalAuth & { applicationId?: bigint }): Promise<TokenResponse> {
    return this.#tokenOperation((handle, api, cb) =>
      api.Client_GetProvisionalToken(handle, args.applicationId ?? 0n, args.externalAuthType, args.externalAuthToken, cb));
  }

  /** getToken() that also merges the provisional account behind the external credential into the signed-in account. */
  getTokenFromProvisionalMerge(args: ExternalAuth & { applicationId?: bigint; code: string; codeVerifier: string; redirectUri: string }): Promise<TokenResponse> {
    return this.#tokenOperation((handle, api, cb) => api.Client_GetTokenFromProvisionalMerge(
      handle, args.applicationId ?? 0n, args.code, args.codeVerifier, args.redirectUri, args.externalAuthType, args.externalAuthToken, cb));
  }

  /** Rotates a token pair (the old pair stops working). An invalid_grant rejects with ERR_SVCPP_AUTHORIZATION_FAILED. */
  refreshToken(args: { applicationId?: bigint; refreshToken: string }): Promise<TokenResponse> {
    return this.#tokenOperation((handle, api, cb) => api.Client_RefreshToken(handle, args.applicationId ?? 0n, args.refreshToken, cb));
  }

  /** Revokes every token of the application for the token's user. */
  revokeToken(args: { applicationId?: bigint; token: string }): Promise<void> {
    return this.#operation((handle, api, settle) =>
      api.Client_RevokeToken(handle, args.applicationId ?? 0n, args.token, (result) => settle(result, () => undefined)));
  }

  /** A token of a child application from a token of its parent (same expiry, no refresh token). */
  exchangeChildToken(args: { parentApplicationToken: string; childApplicationId: bigint }): Promise<TokenResponse> {
    return this.#operation((handle, api, settle) =>
      api.Client_ExchangeChildToken(handle, args.parentApplicationToken, args.childApplicationId, (result, accessToken, tokenType, expiresIn, scopes) =>
        settle(result, () => ({ accessToken, refreshToken: undefined, tokenType, expiresIn, scopes }))));
  }

  /** Moves the external identity off the full account into a new provisional account. */
  unmergeIntoProvisionalAccount(args: ExternalAuth & { applicationId?: bigint }): Promise<void> {
    return this.#operation((handle, api, settle) => api.Client_UnmergeIntoProvisionalAccount(
      handle, args.applicationId ?? 0n, args.externalAuthType, args.externalAuthToken, (result) => settle(result, () => undefined)));
  }

  /** Sets the display name of the signed-in provisional account (1–32 characters). */
  updateProvisionalAccountDisplayName(name: string): Promise<void> {
    return this.#operation((handle, api, settle) =>
      api.Client_UpdateProvisionalAccountDisplayName(handle, name, (result) => settle(result, () => undefined)));
  }

  /** Sets the access token used for HTTP calls and the gateway; then call connect(). */
  updateToken(token: string, tokenType: AuthorizationTokenType = AuthorizationTokenType.Bearer): Promise<void> {
    return this.#operation((handle, api, settle) => api.Client_UpdateToken(handle, tokenType, token, (result) => settle(result, () => undefined)));
  }

  /** Validates a token by fetching its user (no connection). */
  fetchCurrentUser(token: string, tokenType: AuthorizationTokenType = AuthorizationTokenType.Bearer): Promise<{ id: bigint; username: string }> {
    return this.#operation((handle, api, settle) =>
      api.Client_FetchCurrentUser(handle, tokenType, token, (result, id, username) => settle(result, () => ({ id, username }))));
  }

  /** True once updateToken() set a token (its validity is not checked). */
  get isAuthenticated(): boolean {
    return this.#api.Client_IsAuthenticated(this.#live());
  }

  // ---- connection ----

  /**
   * Opens the gateway session with the token of updateToken(). Resolves at Ready; rejects with an
   * SvcppConnectionError when the client ends in Disconnected instead (e.g. ERR_SVCPP_UNEXPECTED_CLOSE, detail 4004).
   */
  connect(): Promise<void> {
    if (this.#handle && this.status === ClientStatus.Ready) return Promise.resolve();
    return this.#untilStatus((status, error, detail) => {
      if (status === ClientStatus.Ready) return true;
      if (status === ClientStatus.Disconnected) throw connectionError(error, detail, this.lastConnectionFailure);
      return false;
    }, (handle, api) => api.Client_Connect(handle));
  }

  /**
   * Why the last connection ended in Disconnected with an error (the cause connect() rejects with); undefined
   * after a clean disconnect, while connecting or connected.
   */
  get lastConnectionFailure(): ConnectionFailureSnapshot | undefined {
    const handle = this.#api.Client_GetLastConnectionFailure(this.#live());
    return handle && takeConnectionFailure(this.#api, handle);
  }

  /** Gateway messages this client could not read and discarded (each is logged at Warning); 0 when healthy. */
  get discardedGatewayMessageCount(): bigint {
    return this.#api.Client_GetDiscardedGatewayMessageCount(this.#live());
  }

  /** Closes the gateway session; resolves at Disconnected. */
  disconnect(): Promise<void> {
    if (this.#handle && this.status === ClientStatus.Disconnected) return Promise.resolve();
    return this.#untilStatus((status) => status === ClientStatus.Disconnected, (handle, api) => api.Client_Disconnect(handle));
  }

  // ---- users ----

  /** The signed-in user, once the session is Ready (undefined before). */
  get currentUser(): UserSnapshot | undefined {
    const handle = this.#api.Client_GetCurrentUserV2(this.#live());
    return handle && takeUserSnapshot(this.#api, handle);
  }

  /** A user from the cache (never fetches). */
  getUser(userId: bigint): UserSnapshot | undefined {
    const handle = this.#api.Client_GetUser(this.#live(), userId);
    return handle && takeUserSnapshot(this.#api, handle);
  }

  // ---- guilds ----

  /** The guilds the user of updateToken()'s token is a member of (ERR_SVCPP_VALIDATION without a token). */
  getUserGuilds(): Promise<GuildSnapshot[]> {
    return this.#snapshotOperation((handle, api, cb) => api.Client_GetUserGuilds(handle, cb), takeGuildSnapshots);
  }

  /** The channels of a guild the user is a member of, sorted by position (ERR_SVCPP_HTTP 403/404 otherwise). */
  getGuildChannels(guildId: bigint): Promise<GuildChannelSnapshot[]> {
    return this.#snapshotOperation((handle, api, cb) => api.Client_GetGuildChannels(handle, guildId, cb), takeGuildChannelSnapshots);
  }

  // ---- relationships (ids are bigint; every change resolves once the platform accepted it — the cache follows
  // with the 'relationshipCreated' / 'relationshipDeleted' events) ----

  /** The relationship with a user, when there is one on either axis. */
  getRelationship(userId: bigint): RelationshipSnapshot | undefined {
    const handle = this.#api.Client_GetRelationshipHandle(this.#live(), userId);
    return handle && takeRelationshipSnapshot(this.#api, handle);
  }

  /** Every relationship (platform and game, pending and blocked included), ordered by user id. */
  getRelationships(): RelationshipSnapshot[] {
    return takeRelationshipSnapshots(this.#api, this.#api.Client_GetRelationships(this.#live()));
  }

  /**
   * The friends (either axis) in one group: OnlinePlayingGame (online with an activity of this application),
   * OnlineElsewhere, Offline. Ordered by display name (case-insensitive), then id.
   */
  getRelationshipsByGroup(group: RelationshipGroupType): RelationshipSnapshot[] {
    return takeRelationshipSnapshots(this.#api, this.#api.Client_GetRelationshipsByGroup(this.#live(), group));
  }

  /** Friends whose username or display name contains `search` (case-insensitive), in the groups' order. */
  searchFriendsByUsername(search: string): UserSnapshot[] {
    return this.#api.Client_SearchFriendsByUsername(this.#live(), search).map((handle) => takeUserSnapshot(this.#api, handle));
  }

  /** Platform friend request by username (accepts a pending request from that user). */
  sendPlatformFriendRequest(username: string): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_SendPlatformFriendRequest(handle, username, cb));
  }

  /** Platform friend request by user id (accepts a pending request from that user). */
  sendPlatformFriendRequestById(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_SendPlatformFriendRequestById(handle, userId, cb));
  }

  /** Game friend request (this application) by username. */
  sendGameFriendRequest(username: string): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_SendGameFriendRequest(handle, username, cb));
  }

  /** Game friend request (this application) by user id. */
  sendGameFriendRequestById(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_SendGameFriendRequestById(handle, userId, cb));
  }

  /** Accepts a pending incoming platform request (ERR_SVCPP_VALIDATION without one). */
  acceptPlatformFriendRequest(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_AcceptPlatformFriendRequest(handle, userId, cb));
  }

  /** Accepts a pending incoming game request (ERR_SVCPP_VALIDATION without one). */
  acceptGameFriendRequest(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_AcceptGameFriendRequest(handle, userId, cb));
  }

  /** Rejects a pending incoming platform request (ERR_SVCPP_VALIDATION without one). */
  rejectPlatformFriendRequest(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_RejectPlatformFriendRequest(handle, userId, cb));
  }

  /** Rejects a pending incoming game request (ERR_SVCPP_VALIDATION without one). */
  rejectGameFriendRequest(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_RejectGameFriendRequest(handle, userId, cb));
  }

  /** Withdraws a pending outgoing platform request (ERR_SVCPP_VALIDATION without one). */
  cancelPlatformFriendRequest(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_CancelPlatformFriendRequest(handle, userId, cb));
  }

  /** Withdraws a pending outgoing game request (ERR_SVCPP_VALIDATION without one). */
  cancelGameFriendRequest(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_CancelGameFriendRequest(handle, userId, cb));
  }

  /** Ends the friendship on both axes (ERR_SVCPP_VALIDATION when not a friend on either). */
  removePlatformAndGameFriend(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_RemovePlatformAndGameFriend(handle, userId, cb));
  }

  /** Ends the game friendship only (ERR_SVCPP_VALIDATION when not a game friend). */
  removeGameFriend(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_RemoveGameFriend(handle, userId, cb));
  }

  /** Blocks a user: every relationship with them ends, both ways. */
  blockUser(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_BlockUser(handle, userId, cb));
  }

  /** Unblocks a blocked user (ERR_SVCPP_VALIDATION when not blocked). */
  unblockUser(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_UnblockUser(handle, userId, cb));
  }

  // ---- presence and game invites ----

  /**
   * Sets this application's activity. Every limit is checked locally first (ERR_SVCPP_VALIDATION naming the
   * field; nothing is sent); needs a Ready session (ERR_SVCPP_CLIENT_NOT_READY).
   */
  updateRichPresence(activity: Activity): Promise<void> {
    return this.#voidOperation((handle, api, cb) => {
      const native = toNativeActivity(api, activity);
      try {
        api.Client_UpdateRichPresence(handle, native, cb);
      } finally {
        api.Activity_Drop(native);
      }
    });
  }

  /** Removes this application's activity (fire and forget; a failure is logged). */
  clearRichPresence(): void {
    this.#api.Client_ClearRichPresence(this.#live());
  }

  /** Online, Idle, Dnd or Invisible (others: ERR_SVCPP_VALIDATION). */
  setOnlineStatus(status: StatusType): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_SetOnlineStatus(handle, status, cb));
  }

  /** Invites a user to this user's activity, which must be joinable (party with room and a join secret). */
  sendActivityInvite(userId: bigint, content = ''): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_SendActivityInvite(handle, userId, content, cb));
  }

  /** Asks a user whose activity is joinable for an invite. */
  sendActivityJoinRequest(userId: bigint): Promise<void> {
    return this.#voidOperation((handle, api, cb) => api.Client_SendActivityJoinRequest(handle, userId, cb));
  }

  /** Answers a join request (an invite of type JoinRequest) with an invite to its sender. */
  sendActivityJoinRequestReply(invite: ActivityInvite): Promise<void> {
    return this.#voidOperation((handle, api, cb) => this.#withInvite(invite, (native) => api.Client_SendActivityJoinRequestReply(handle, native, cb)));
  }

  /** Accepts an invite of type Join; resolves with the join secret of the sender's current activity. */
  acceptActivityInvite(invite: ActivityInvite): Promise<string> {
    return this.#operation((handle, api, settle) => this.#withInvite(invite, (native) =>
      api.Client_AcceptActivityInvite(handle, native, (result, joinSecret) => settle(result, () => joinSecret))));
  }

  #withInvite(invite: ActivityInvite, use: (native: NativeHandle<'ActivityInvite'>) => void): void {
    const native = toNativeInvite(this.#api, invite);
    try {
      use(native);
    } finally {
      this.#api.ActivityInvite_Drop(native);
    }
  }

  // ---- messages (lib/messages.ts) ----

  /**
   * Sends a message to a lobby the user is a member of; resolves with the message id. Content is 1–2000 characters,
   * metadata ≤ 25 keys with values ≤ 1024 characters (ERR_SVCPP_VALIDATION before any request otherwise).
   */
  sendLobbyMessage(lobbyId: bigint, content: string, metadata?: Record<string, string>): Promise<bigint> {
    return this.#operation((handle, api, settle) => {
      const cb = (result: NativeHandle<'ClientResult'>, messageId: bigint) => settle(result, () => messageId);
      if (metadata) api.Client_SendLobbyMessageWithMetadata(handle, lobbyId, content, metadata, cb);
      else api.Client_SendLobbyMessage(handle, lobbyId, content, cb);
    });
  }

  /** Sends a direct message (persistent between friends with a full account, else ephemeral); resolves with its id. */
  sendUserMessage(recipientId: bigint, content: string, metadata?: Record<string, string>): Promise<bigint> {
    return this.#operation((handle, api, settle) => {
      const cb = (result: NativeHandle<'ClientResult'>, messageId: bigint) => settle(result, () => messageId);
      if (metadata) api.Client_SendUserMessageWithMetadata(handle, recipientId, content, metadata, cb);
      else api.Client_SendUserMessage(handle, recipientId, content, cb);
    });
  }

  /** Replaces the text of a direct message this user sent. */
  editUserMessage(recipientId: bigint, messageId: bigint, content: string): Promise<void> {
    return this.#operation((handle, api, settle) =>
      api.Client_EditUserMessage(handle, recipientId, messageId, content, (result) => settle(result, () => undefined)));
  }

  /** Deletes a direct message this user sent. */
  deleteUserMessage(recipientId: bigint, messageId: bigint): Promise<void> {
    return this.#operation((handle, api, settle) =>
      api.Client_DeleteUserMessage(handle, recipientId, messageId, (result) => settle(result, () => undefined)));
  }

  /** A cached message (the 25 most recent per channel); never fetches. */
  getMessage(messageId: bigint): MessageSnapshot | undefined {
    const handle = this.#api.Client_GetMessageHandle(this.#live(), messageId);
    return handle && takeMessageSnapshot(this.#api, handle);
  }

  /** A persistent DM channel or a lobby the user is in (ephemeral DMs have no channel). */
  getChannel(channelId: bigint): ChannelSnapshot | undefined {
    const handle = this.#api.Client_GetChannelHandle(this.#live(), channelId);
    return handle && takeChannelSnapshot(this.#api, handle);
  }

  /** The lobby's recent messages, newest first. limit ≤ 0 means 200; above 200 rejects with ERR_SVCPP_VALIDATION. */
  getLobbyMessages(lobbyId: bigint, limit = 0): Promise<MessageSnapshot[]> {
    return this.#snapshotOperation((handle, api, cb) => api.Client_GetLobbyMessagesWithLimit(handle, lobbyId, limit, cb), takeMessageSnapshots);
  }

  /** The recent direct messages with a user, newest first: cached ones, completed over HTTP when there are fewer than limit. */
  getUserMessages(recipientId: bigint, limit = 0): Promise<MessageSnapshot[]> {
    return this.#snapshotOperation((handle, api, cb) => api.Client_GetUserMessagesWithLimit(handle, recipientId, limit, cb), takeMessageSnapshots);
  }

  /** The latest message with every DM partner (last 72 h), most recent conversation first. */
  getUserMessageSummaries(): Promise<UserMessageSummarySnapshot[]> {
    return this.#snapshotOperation((handle, api, cb) => api.Client_GetUserMessageSummaries(handle, cb), takeSummarySnapshots);
  }

  /** True when the message is cached and also visible in the platform's own client (persistent DM, linked lobby). */
  canOpenMessageInPlatform(messageId: bigint): boolean {
    return this.#api.Client_CanOpenMessageInPlatform(this.#live(), messageId);
  }

  // ---- voice calls (lib/voice/: Call, devices and settings on client.voice) ----

  /**
   * Joins the voice call of a lobby this user is a member of (Ready needed); throws ERR_SVCPP_CALL_REFUSED otherwise.
   * `audio`: listeners of the received and captured audio (N-API; see CallAudioOptions).
   */
  startCall(lobbyId: bigint, audio?: CallAudioOptions): Call {
    return this.voice.startCall(lobbyId, audio);
  }

  // ---- lobbies (lib/lobbies.ts) ----

  /**
   * Creates the lobby of this secret (1–250 characters) or joins it; resolves with the lobby id. The same secret
   * always names the same lobby; metadata given here overwrites the lobby's / this member's.
   */
  createOrJoinLobby(secret: string, options: CreateOrJoinLobbyOptions = {}): Promise<bigint> {
    return this.#operation((handle, api, settle) => {
      const cb = (result: NativeHandle<'ClientResult'>, lobbyId: bigint) => settle(result, () => lobbyId);
      if (options.lobbyMetadata || options.memberMetadata) {
        api.Client_CreateOrJoinLobbyWithMetadata(handle, secret, options.lobbyMetadata ?? {}, options.memberMetadata ?? {}, cb);
      } else {
        api.Client_CreateOrJoinLobby(handle, secret, cb);
      }
    });
  }

  /** Leaves a lobby joined by secret ('lobbyDeleted' follows for this user). */
  leaveLobby(lobbyId: bigint): Promise<void> {
    return this.#operation((handle, api, settle) => api.Client_LeaveLobby(handle, lobbyId, (result) => settle(result, () => undefined)));
  }

  /** A lobby the user is a member of, from the cache. */
  getLobby(lobbyId: bigint): LobbySnapshot | undefined {
    const handle = this.#api.Client_GetLobbyHandle(this.#live(), lobbyId);
    return handle && takeLobbySnapshot(this.#api, handle);
  }

  /** The ids of the lobbies the user is a member of (may be incomplete right after Ready). */
  get lobbyIds(): bigint[] {
    return this.#api.Client_GetLobbyIds(this.#live());
  }

  /** Links a lobby to a guild text channel (the member needs canLinkLobby and the channel must be linkable). */
  linkChannelToLobby(lobbyId: bigint, channelId: bigint): Promise<void> {
    return this.#operation((handle, api, settle) =>
      api.Client_LinkChannelToLobby(handle, lobbyId, channelId, (result) => settle(result, () => undefined)));
  }

  /** Removes the lobby's channel link. */
  unlinkChannelFromLobby(lobbyId: bigint): Promise<void> {
    return this.#operation((handle, api, settle) => api.Client_UnlinkChannelFromLobby(handle, lobbyId, (result) => settle(result, () => undefined)));
  }

  /**
   * A single-use invite URL to the guild of the lobby's linked channel. A provisional user must merge first:
   * `onMergeRequired` is called and the promise rejects with the platform's error.
   */
  joinLinkedLobbyGuild(lobbyId: bigint, options: { onMergeRequired?: () => void } = {}): Promise<string> {
    return this.#operation((handle, api, settle) => api.Client_JoinLinkedLobbyGuild(handle, lobbyId, () => options.onMergeRequired?.(),
      (result, inviteUrl) => settle(result, () => inviteUrl)));
  }

  // ---- logging ----

  /** Writes log lines at or above minSeverity to <dir>/svcpp.log (overwritten); None stops. False when the file cannot be opened. */
  setLogDir(dir: string, minSeverity: LoggingSeverity = LoggingSeverity.Info): boolean {
    return this.#api.Client_SetLogDir(this.#live(), dir, minSeverity);
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
        handle = this.#live();
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
  #operation<T>(start: (handle: NativeHandle<'Client'>, api: NativeApi,
    settle: (result: NativeHandle<'ClientResult'>, value: () => T) => void) => void): Promise<T> {
    const api = this.#api;
    return this.#pendingPromise<T>((handle, settle) =>
      start(handle, api, (result, value) => settle(() => {
        const error = resultError(api, result);
        api.ClientResult_Drop(result);
        if (error) throw error;
        return value();
      })));
  }

  /**
   * An #operation whose callback hands over native handles: `take` snapshots and drops them before the promise
   * settles, so a failed result does not leave them to the garbage collector.
   */
  #snapshotOperation<H, T>(start: (handle: NativeHandle<'Client'>, api: NativeApi,
    cb: (result: NativeHandle<'ClientResult'>, handles: H) => void) => void, take: (api: NativeApi, handles: H) => T): Promise<T> {
    return this.#operation<T>((handle, api, settle) => start(handle, api, (result, handles) => {
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
    }));
  }

  /** An #operation whose callback carries only the ClientResult. */
  #voidOperation(start: (handle: NativeHandle<'Client'>, api: NativeApi, cb: (result: NativeHandle<'ClientResult'>) => void) => void): Promise<void> {
    return this.#operation((handle, api, settle) => start(handle, api, (result) => settle(result, () => undefined)));
  }

  #tokenOperation(start: (handle: NativeHandle<'Client'>, api: NativeApi,
    cb: (result: NativeHandle<'ClientResult'>, accessToken: string, refreshToken: string, tokenType: AuthorizationTokenType,
      expiresIn: number, scopes: string) => void) => void): Promise<TokenResponse> {
    return this.#operation((handle, api, settle) => start(handle, api, (result, accessToken, refreshToken, tokenType, expiresIn, scopes) =>
      settle(result, () => ({ accessToken, refreshToken: refreshToken || undefined, tokenType, expiresIn, scopes }))));
  }

  /** Calls `start`, then settles when `done` says so for a status change (true resolves; a throw rejects). */
  #untilStatus(done: (status: ClientStatus, error: ClientError, detail: number) => boolean,
    start: (handle: NativeHandle<'Client'>, api: NativeApi) => void): Promise<void> {
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
      this.#statusWaiters.set(waiter, (error) => settle(() => {
        throw error;
      }));
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
      areaSetter(api, handle, (...args: unknown[]) => this.emit(event as keyof ClientEvents & string, ...(args as never)));
    } else if (event === 'log') {
      this.#logToken = api.Client_AddLogCallback(handle, this.#logMinSeverity, (message, severity) => this.emit('log', message, severity));
    } else if (event === 'userUpdated') {
      api.Client_SetUserUpdatedCallback(handle, (userId) => this.emit('userUpdated', userId));
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
    const hasListeners = addingListener || [...NATIVE_EVENTS, 'statusChanged'].some((event) => this.listenerCount(event) > 0);
    // Like a socket: alive while connected, while a promise waits for the SDK, or while someone listens.
    const busy = this.#pending > 0 || this.#api.Client_GetStatus(handle) !== ClientStatus.Disconnected;
    const want = this.#userRef && (hasListeners || busy);
    if (want === this.#pumpRefd) return;
    this.#api.Client_SetPumpRef(handle, want);
    this.#pumpRefd = want;
  }
}

const CONNECTION_ERROR_CODES: Record<ClientError, SvcppConnectionErrorCode> = {
  [ClientError.None]: 'ERR_SVCPP_CONNECTION_FAILED',
  [ClientError.ConnectionFailed]: 'ERR_SVCPP_CONNECTION_FAILED',
  [ClientError.UnexpectedClose]: 'ERR_SVCPP_UNEXPECTED_CLOSE',
  [ClientError.ConnectionCanceled]: 'ERR_SVCPP_CONNECTION_CANCELED',
};

function connectionError(error: ClientError, detail: number, cause: ConnectionFailureSnapshot | undefined): SvcppConnectionError {
  return new SvcppConnectionError(CONNECTION_ERROR_CODES[error] ?? 'ERR_SVCPP_CONNECTION_FAILED', detail,
    `the client disconnected instead of becoming ready (${ClientError[error] ?? error}, ${detail})`, cause);
}

function abortedError(message: string): SvcppResultError {
  return new SvcppResultError({
    type: ErrorType.Aborted, message, status: HttpStatusCode.None, errorCode: 0, retryable: false, retryAfter: 0, responseBody: '',
  });
}
