// The Client's option, event and result types (lib/client.ts, lib/client/base.ts).
import type {
  AudioSystem,
  AuthenticationExternalAuthType,
  AuthorizationTokenType,
  ClientError,
  ClientStatus,
  LoggingSeverity,
} from '../../contract/enums.js';
import type { ConnectionEvents } from '../connection.js';
import type { BackendName } from '../loader.js';
import type { LobbyEvents } from '../lobbies.js';
import type { LocalClientEvents, LocalClientOptions } from '../local-client.js';
import type { MessageEvents } from '../messages.js';
import type { InviteEvents } from '../presence.js';
import type { RelationshipEvents } from '../relationships.js';
import type { UserSnapshot } from '../users.js';
export type { AuthorizationCodeVerifierSnapshot } from '../../contract/snapshots.js';

export interface ClientOptions extends LocalClientOptions {
  /** 'napi' (default; callbacks drained by a wakeup hook) or 'koffi' (pure FFI; polled every 1–16 ms, see README). */
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

export type ClientEvents = MessageEvents &
  LobbyEvents &
  RelationshipEvents &
  InviteEvents &
  ConnectionEvents &
  LocalClientEvents & {
    /** A log line of the SDK at or above `logMinSeverity`. */
    log: [message: string, severity: LoggingSeverity];
    /** The connection status changed; error/errorDetail say why when it is a failure. */
    statusChanged: [status: ClientStatus, error: ClientError, errorDetail: number];
    /**
     * A cached user changed (name, avatar, status). `user`: the user as the cache holds it when the event is delivered
     * (what getUser(userId) would answer first thing in the handler, read in the same crossing as the event), undefined
     * when the user is no longer cached.
     */
    userUpdated: [userId: bigint, user: UserSnapshot | undefined];
    /** The token given to updateToken() expires soon or was rejected: refresh it and call updateToken() again. */
    tokenExpiring: [];
    /** The local platform client asks the game to start account linking (call authorize()); see lib/local-client.ts. */
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
