/** The gateway's contract with the rest of the platform (startPlatform wires these). */
import type { Logger } from 'pino';
import type { EventBus } from '../events/bus.js';
import type { GatewayOptions } from './options.js';
import type { Presence } from './schemas.js';

export interface GatewayIdentity {
  kind: 'user' | 'bot';
  applicationId: string;
  /** The user behind a Bearer token, or the application's bot user. */
  userId: string;
  scopes: string[];
  /** The user object sent in READY. */
  user: Record<string, unknown>;
  /** Application flags (READY `application.flags`; privileged-intent checks for bots). Default 0. */
  applicationFlags?: number;
}

/** One identified session as feature code sees it: who, with which intents, and a way to send it a dispatch. */
export interface GatewaySessionHandle {
  /** The session id (READY's `session_id`). */
  id: string;
  identity: GatewayIdentity;
  /** Identify's intents (0 for user sessions that sent none). */
  intents: number;
  dispatch(t: string, d: unknown): void;
}

/** A command op the gateway itself does not handle (op 8 Request Guild Members, op 43 Request Channel Info, …). */
export interface GatewayCommand {
  op: number;
  d: unknown;
  session: GatewaySessionHandle;
}

export interface GatewayDeps {
  bus: EventBus;
  /** `Bearer <token>` for users, the bare token for bots; null when the token is not valid (any more). */
  authenticate(token: string): GatewayIdentity | null;
  /** Extra READY fields, e.g. lobbies and relationships of a user session. */
  readyExtras?(id: GatewayIdentity): Record<string, unknown>;
  /**
   * A user session's presence (op 3 or Identify's `presence`), already shape-checked. Returns true when a feature
   * routed it (e.g. to friends), 'invalid' when the feature's own rules refuse it (the connection is closed with
   * 4001, like a malformed payload); otherwise (false) the gateway publishes it to the application's sessions.
   */
  userPresence?(id: GatewayIdentity, presence: Presence): boolean | 'invalid';
  /**
   * A (user, application) pair got its first session, or lost its last one (destroyed, not merely detached and
   * still resumable). Drives "online"/"offline" presence and lobby members' `connected`.
   */
  sessionsChanged?(change: SessionsChange): void;
  /**
   * The same changes, seen on every node of a deployment (sessionsChanged runs once, on the node where the change
   * happened): for state that each node keeps, such as the portal's list of live sessions.
   */
  sessionsObserved?(change: SessionsChange): void;
  /** After READY went out to a new session (GUILD_CREATE for bots follows it). */
  identified?(session: GatewaySessionHandle): void;
  /** true: a feature handled the op; 'invalid': its payload is refused (close 4001); false: unknown (close 4001). */
  command?(command: GatewayCommand): boolean | 'invalid';
  logger: Logger;
  options?: Partial<GatewayOptions>;
  /**
   * The platform's public base URL (`http(s)://host:port`, or already `ws(s)://…`); the gateway URL is derived
   * from it. Without it the URL is derived from each request's Host header and protocol.
   */
  publicUrl?(): string;
}

export interface SessionsChange {
  userId: string;
  applicationId: string;
  kind: 'user' | 'bot';
  /** true: the first session appeared; false: the last one is gone. */
  present: boolean;
  /**
   * Seen while this node replays the log's history, before it serves (several nodes): no session of this node can
   * be waiting for what the change causes, so observers rebuild state and send nothing.
   */
  fromHistory: boolean;
}

/** Selects sessions for the handle's operations; present criteria are combined with AND, none selects all. */
export interface SessionFilter {
  userId?: string;
  applicationId?: string;
  sessionId?: string;
}

export interface GatewayStats {
  /** Open WebSocket connections (identified or not). */
  connections: number;
  /** Sessions attached to a connection. */
  attached: number;
  /** Sessions waiting to be resumed. */
  detached: number;
}

export interface GatewayHandle {
  /** Closes every connection of the user with the code (default 4004, terminal: e.g. the token was revoked). */
  disconnectUser(userId: string, closeCode?: number): void;
  /** The user holds a session (attached or resumable) for the application: the one "is connected" query. */
  hasSession(userId: string, applicationId: string): boolean;
  /** Sessions that exist: attached ones plus dropped ones still resumable. */
  sessionCount(): number;
  stats(): GatewayStats;
  /** Drops matching connections without a close frame (like a network failure); their sessions stay resumable. */
  dropConnections(filter?: SessionFilter): void;
  /** Sends op 7 to matching sessions, then closes their sockets with 4000; they can resume. */
  sendReconnect(filter?: SessionFilter): void;
  /** Sends op 9 with `d: resumable` to matching sessions (see PROTOCOL.md §20.6 for what happens next). */
  invalidateSessions(resumable: boolean, filter?: SessionFilter): void;
  /** Closes every socket with 1001, forgets every session and stops the timers. */
  close(): Promise<void>;
}
