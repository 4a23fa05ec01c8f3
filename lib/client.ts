// The Client: one class over either backend. It adapts only: options -> ClientCreateOptions, native callbacks ->
// typed events, handles -> snapshots, misuse -> SvcppError. No protocol logic lives here. The layers under it:
//   lib/client/base.ts                the handle, its lifetime, the event-loop ref and the promise plumbing
//   lib/client/native-values.ts       native value objects built or read for one call (PKCE pair, activity, invite)
//   lib/generated/client-methods.ts   every method that only forwards (generated from the IDL's `ts` hints)
//   this file                         the methods that adapt more: options objects, value conversions, statics
// How adding a method works: docs/adding-an-sdk-method.md.
import { AuthorizationTokenType, ClientStatus, LoggingSeverity } from '../contract/enums.js';
import type { NativeHandle } from '../contract/native-api.js';
import { AuthorizationArgs, type AuthorizationArgsInit } from './authorization.js';
import { takeConnectionFailure, type ConnectionFailureSnapshot } from './connection.js';
import { loadBackend } from './loader.js';
import { type CreateOrJoinLobbyOptions } from './lobbies.js';
import type { Activity, ActivityInvite } from './presence.js';
import type { UserSnapshot } from './users.js';
import { GeneratedClientMethods } from './generated/client-methods.js';
import { abortedError, connectionError } from './client/errors.js';
import { createCodeVerifier, withNativeActivity, withNativeInvite } from './client/native-values.js';
import type {
  AuthorizationCodeVerifierSnapshot,
  AuthorizationResult,
  AuthorizeOptions,
  ExternalAuth,
  TokenResponse,
} from './client/types.js';

export type {
  AuthorizationCodeVerifierSnapshot,
  AuthorizationResult,
  AuthorizeOptions,
  ClientEvents,
  ClientOptions,
  ExternalAuth,
  TokenResponse,
} from './client/types.js';
import type { Call } from './voice/call.js';
import type { CallAudioOptions } from './voice/voice-area.js';

/**
 * The root object of the SDK. Ids are `bigint` (64-bit snowflakes do not fit a JS number).
 *
 * The event loop, like a socket's: a client keeps it alive while connected, while a promise waits for the SDK, or
 * while it has listeners, unless `unref()` opted out (`ref()` opts back in). `close()` (or `await using`) releases
 * everything and the process can exit by itself.
 */
export class Client extends GeneratedClientMethods {
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

  // ---- authentication ----

  /** A fresh PKCE S256 pair (snapshot; nothing native is kept). */
  createAuthorizationCodeVerifier(): AuthorizationCodeVerifierSnapshot {
    return createCodeVerifier(this.api, this.live());
  }

  /**
   * Runs the OAuth2 authorization code flow: a loopback redirect listener on 127.0.0.1, the authorize page
   * opened through `options.openUrl` (else the system browser). Resolves with the code; send a PKCE challenge
   * in `args.codeChallenge` and exchange the code with getToken().
   */
  authorize(
    args: AuthorizationArgs | AuthorizationArgsInit = {},
    options: AuthorizeOptions = {},
  ): Promise<AuthorizationResult> {
    const { signal, openUrl } = options;
    if (signal?.aborted) return Promise.reject(abortedError('the signal was already aborted'));
    return this.operation<AuthorizationResult>((handle, api, settle) => {
      const owned =
        args instanceof AuthorizationArgs ? undefined : new AuthorizationArgs(args, { backend: this.backend });
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

  /** Exchanges an authorization code (PKCE verifier, public client) for tokens. */
  getToken(args: {
    applicationId?: bigint;
    code: string;
    codeVerifier: string;
    redirectUri: string;
  }): Promise<TokenResponse> {
    return this.tokenOperation((handle, api, cb) =>
      api.Client_GetToken(handle, args.applicationId ?? 0n, args.code, args.codeVerifier, args.redirectUri, cb),
    );
  }

  /** Signs in a provisional account with an external credential. */
  getProvisionalToken(args: ExternalAuth & { applicationId?: bigint }): Promise<TokenResponse> {
    return this.tokenOperation((handle, api, cb) =>
      api.Client_GetProvisionalToken(
        handle,
        args.applicationId ?? 0n,
        args.externalAuthType,
        args.externalAuthToken,
        cb,
      ),
    );
  }

  /** getToken() that also merges the provisional account behind the external credential into the signed-in account. */
  getTokenFromProvisionalMerge(
    args: ExternalAuth & { applicationId?: bigint; code: string; codeVerifier: string; redirectUri: string },
  ): Promise<TokenResponse> {
    return this.tokenOperation((handle, api, cb) =>
      api.Client_GetTokenFromProvisionalMerge(
        handle,
        args.applicationId ?? 0n,
        args.code,
        args.codeVerifier,
        args.redirectUri,
        args.externalAuthType,
        args.externalAuthToken,
        cb,
      ),
    );
  }

  /**
   * Rotates a token pair (the old pair stops working). An invalid_grant rejects with ERR_SVCPP_AUTHORIZATION_FAILED.
   */
  refreshToken(args: { applicationId?: bigint; refreshToken: string }): Promise<TokenResponse> {
    return this.tokenOperation((handle, api, cb) =>
      api.Client_RefreshToken(handle, args.applicationId ?? 0n, args.refreshToken, cb),
    );
  }

  /** Revokes every token of the application for the token's user. */
  revokeToken(args: { applicationId?: bigint; token: string }): Promise<void> {
    return this.operation((handle, api, settle) =>
      api.Client_RevokeToken(handle, args.applicationId ?? 0n, args.token, (result) => settle(result, () => undefined)),
    );
  }

  /** A token of a child application from a token of its parent (same expiry, no refresh token). */
  exchangeChildToken(args: { parentApplicationToken: string; childApplicationId: bigint }): Promise<TokenResponse> {
    return this.operation((handle, api, settle) =>
      api.Client_ExchangeChildToken(
        handle,
        args.parentApplicationToken,
        args.childApplicationId,
        (result, accessToken, tokenType, expiresIn, scopes) =>
          settle(result, () => ({ accessToken, refreshToken: undefined, tokenType, expiresIn, scopes })),
      ),
    );
  }

  /** Moves the external identity off the full account into a new provisional account. */
  unmergeIntoProvisionalAccount(args: ExternalAuth & { applicationId?: bigint }): Promise<void> {
    return this.operation((handle, api, settle) =>
      api.Client_UnmergeIntoProvisionalAccount(
        handle,
        args.applicationId ?? 0n,
        args.externalAuthType,
        args.externalAuthToken,
        (result) => settle(result, () => undefined),
      ),
    );
  }

  /** Sets the access token used for HTTP calls and the gateway; then call connect(). */
  updateToken(token: string, tokenType: AuthorizationTokenType = AuthorizationTokenType.Bearer): Promise<void> {
    return this.operation((handle, api, settle) =>
      api.Client_UpdateToken(handle, tokenType, token, (result) => settle(result, () => undefined)),
    );
  }

  /** Validates a token by fetching its user (no connection). */
  fetchCurrentUser(
    token: string,
    tokenType: AuthorizationTokenType = AuthorizationTokenType.Bearer,
  ): Promise<{ id: bigint; username: string }> {
    return this.operation((handle, api, settle) =>
      api.Client_FetchCurrentUser(handle, tokenType, token, (result, id, username) =>
        settle(result, () => ({ id, username })),
      ),
    );
  }

  /** True once updateToken() set a token (its validity is not checked). */
  get isAuthenticated(): boolean {
    return this.api.Client_IsAuthenticated(this.live());
  }

  // ---- connection ----

  /**
   * Opens the gateway session with the token of updateToken(). Resolves at Ready; rejects with an
   * SvcppConnectionError when the client ends in Disconnected instead (e.g. ERR_SVCPP_UNEXPECTED_CLOSE, detail 4004).
   */
  connect(): Promise<void> {
    if (!this.closed && this.status === ClientStatus.Ready) return Promise.resolve();
    return this.untilStatus(
      (status, error, detail) => {
        if (status === ClientStatus.Ready) return true;
        if (status === ClientStatus.Disconnected) throw connectionError(error, detail, this.lastConnectionFailure);
        return false;
      },
      (handle, api) => api.Client_Connect(handle),
    );
  }

  /**
   * Why the last connection ended in Disconnected with an error (the cause connect() rejects with); undefined
   * after a clean disconnect, while connecting or connected.
   */
  get lastConnectionFailure(): ConnectionFailureSnapshot | undefined {
    const handle = this.api.Client_GetLastConnectionFailure(this.live());
    return handle && takeConnectionFailure(this.api, handle);
  }

  /** Gateway messages this client could not read and discarded (each is logged at Warning); 0 when healthy. */
  get discardedGatewayMessageCount(): bigint {
    return this.api.Client_GetDiscardedGatewayMessageCount(this.live());
  }

  /** Closes the gateway session; resolves at Disconnected. */
  disconnect(): Promise<void> {
    if (!this.closed && this.status === ClientStatus.Disconnected) return Promise.resolve();
    return this.untilStatus(
      (status) => status === ClientStatus.Disconnected,
      (handle, api) => api.Client_Disconnect(handle),
    );
  }

  // ---- users ----

  /** The signed-in user, once the session is Ready (undefined before). */
  get currentUser(): UserSnapshot | undefined {
    return this.api.Client_GetCurrentUserV2_Snapshot(this.live());
  }

  // ---- presence and game invites ----

  /**
   * Sets this application's activity. Every limit is checked locally first (ERR_SVCPP_VALIDATION naming the
   * field; nothing is sent); needs a Ready session (ERR_SVCPP_CLIENT_NOT_READY).
   */
  updateRichPresence(activity: Activity): Promise<void> {
    return this.voidOperation((handle, api, cb) =>
      withNativeActivity(api, activity, (native) => api.Client_UpdateRichPresence(handle, native, cb)),
    );
  }

  /** Answers a join request (an invite of type JoinRequest) with an invite to its sender. */
  sendActivityJoinRequestReply(invite: ActivityInvite): Promise<void> {
    return this.voidOperation((handle, api, cb) =>
      withNativeInvite(api, invite, (native) => api.Client_SendActivityJoinRequestReply(handle, native, cb)),
    );
  }

  /** Accepts an invite of type Join; resolves with the join secret of the sender's current activity. */
  acceptActivityInvite(invite: ActivityInvite): Promise<string> {
    return this.operation((handle, api, settle) =>
      withNativeInvite(api, invite, (native) =>
        api.Client_AcceptActivityInvite(handle, native, (result, joinSecret) => settle(result, () => joinSecret)),
      ),
    );
  }

  // ---- messages (lib/messages.ts) ----

  /**
   * Sends a message to a lobby the user is a member of; resolves with the message id. Content is 1–2000 characters,
   * metadata ≤ 25 keys with values ≤ 1024 characters (ERR_SVCPP_VALIDATION before any request otherwise).
   */
  sendLobbyMessage(lobbyId: bigint, content: string, metadata?: Record<string, string>): Promise<bigint> {
    return this.operation((handle, api, settle) => {
      const cb = (result: NativeHandle<'ClientResult'>, messageId: bigint) => settle(result, () => messageId);
      if (metadata) api.Client_SendLobbyMessageWithMetadata(handle, lobbyId, content, metadata, cb);
      else api.Client_SendLobbyMessage(handle, lobbyId, content, cb);
    });
  }

  /** Sends a direct message (persistent between friends with a full account, else ephemeral); resolves with its id. */
  sendUserMessage(recipientId: bigint, content: string, metadata?: Record<string, string>): Promise<bigint> {
    return this.operation((handle, api, settle) => {
      const cb = (result: NativeHandle<'ClientResult'>, messageId: bigint) => settle(result, () => messageId);
      if (metadata) api.Client_SendUserMessageWithMetadata(handle, recipientId, content, metadata, cb);
      else api.Client_SendUserMessage(handle, recipientId, content, cb);
    });
  }

  // ---- lobbies (lib/lobbies.ts) ----

  /**
   * Creates the lobby of this secret (1–250 characters) or joins it; resolves with the lobby id. The same secret
   * always names the same lobby; metadata given here overwrites the lobby's / this member's.
   */
  createOrJoinLobby(secret: string, options: CreateOrJoinLobbyOptions = {}): Promise<bigint> {
    return this.operation((handle, api, settle) => {
      const cb = (result: NativeHandle<'ClientResult'>, lobbyId: bigint) => settle(result, () => lobbyId);
      if (options.lobbyMetadata || options.memberMetadata) {
        api.Client_CreateOrJoinLobbyWithMetadata(
          handle,
          secret,
          options.lobbyMetadata ?? {},
          options.memberMetadata ?? {},
          cb,
        );
      } else {
        api.Client_CreateOrJoinLobby(handle, secret, cb);
      }
    });
  }

  /** The ids of the lobbies the user is a member of (may be incomplete right after Ready). */
  get lobbyIds(): bigint[] {
    return this.api.Client_GetLobbyIds(this.live());
  }

  /**
   * A single-use invite URL to the guild of the lobby's linked channel. A provisional user must merge first:
   * `onMergeRequired` is called and the promise rejects with the platform's error.
   */
  joinLinkedLobbyGuild(lobbyId: bigint, options: { onMergeRequired?: () => void } = {}): Promise<string> {
    return this.operation((handle, api, settle) =>
      api.Client_JoinLinkedLobbyGuild(
        handle,
        lobbyId,
        () => options.onMergeRequired?.(),
        (result, inviteUrl) => settle(result, () => inviteUrl),
      ),
    );
  }

  /**
   * Shows the message in the local platform client (lib/local-client.ts). A provisional user gets `onMergeRequired`
   * and a rejection; a message canOpenMessageInPlatform() refuses is ERR_SVCPP_VALIDATION; no local client: RPCError.
   */
  openMessageInPlatform(messageId: bigint, options: { onMergeRequired?: () => void } = {}): Promise<void> {
    return this.operation((handle, api, settle) =>
      api.Client_OpenMessageInPlatform(
        handle,
        messageId,
        () => options.onMergeRequired?.(),
        (result) => settle(result, () => undefined),
      ),
    );
  }

  // ---- voice calls (lib/voice/: Call, devices and settings on client.voice) ----

  /**
   * Joins the voice call of a lobby this user is a member of (Ready needed); throws ERR_SVCPP_CALL_REFUSED otherwise.
   * `audio`: listeners of the received and captured audio (N-API; see CallAudioOptions).
   */
  startCall(lobbyId: bigint, audio?: CallAudioOptions): Call {
    return this.voice.startCall(lobbyId, audio);
  }

  // ---- logging ----

  /**
   * Writes log lines at or above minSeverity to <dir>/svcpp.log (overwritten); None stops. False when the file cannot
   * be opened.
   */
  setLogDir(dir: string, minSeverity: LoggingSeverity = LoggingSeverity.Info): boolean {
    return this.api.Client_SetLogDir(this.live(), dir, minSeverity);
  }
}
