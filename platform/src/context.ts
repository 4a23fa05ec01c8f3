import type { Logger } from 'pino';
import type { EventBus } from './events/bus.js';
import type { SnowflakeGenerator } from './ids/snowflake.js';
import type { ResolvedOptions } from './options.js';
import type { Store } from './store/types.js';
import type { OidcSigningKeys } from './oauth/oidc/signing-keys.js';
import type { OidcProviderVerifier } from './partner-sdk/oidc/verifier.js';
import type { OutboundHttpClient } from './outbound/http-client.js';
import type { WebhookDeliverer } from './webhooks/deliverer.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { GatewayIdentity } from './gateway/types.js';
import type { GatewayCommand, GatewaySessionHandle, SessionsChange } from './gateway/types.js';
import type { Presence } from './gateway/schemas.js';

/**
 * How feature areas plug into the gateway without the gateway knowing them: each area appends its handlers when
 * its routes are registered; startPlatform fans the gateway's calls out to every handler.
 */
export interface GatewayHooks {
  /** Extra READY fields of a user session (merged in registration order). */
  readyExtras: Array<(identity: GatewayIdentity) => Record<string, unknown>>;
  /**
   * First handler returning true owns a user session's presence update (op 3 / Identify presence); 'invalid'
   * refuses it (the gateway closes with 4001).
   */
  userPresence: Array<(identity: GatewayIdentity, presence: Presence) => boolean | 'invalid'>;
  /**
   * Every handler sees every first-session / last-session change of a (user, application) pair, once in the
   * deployment (on the node where it happened): side effects such as presence updates and lobby events.
   */
  sessionsChanged: Array<(change: SessionsChange) => void>;
  /** The same changes on every node (several nodes: PROTOCOL.md "Several nodes"), for state each node keeps. */
  sessionsObserved: Array<(change: SessionsChange) => void>;
  /** Every handler sees each new session right after its READY. */
  identified: Array<(session: GatewaySessionHandle) => void>;
  /** First handler returning true or 'invalid' owns a command op (op 8, op 43, …). */
  commands: Array<(command: GatewayCommand) => boolean | 'invalid'>;
}

/**
 * Data that follows an account through merge and unmerge. Each feature area that stores per-user data adds one
 * (guild memberships, friends, lobby memberships, DMs…). Runs inside the merge/unmerge transaction. (Declared
 * here, not in accounts/, so that the context does not import a feature area.)
 */
export interface AccountMigration {
  name: string;
  /** Provisional `fromUserId` is being merged into full account `toUserId` (then deleted). */
  merge?(ctx: PlatformContext, fromUserId: string, toUserId: string): void;
  /** Full account `fullUserId` unlinks from `applicationId`; `provisionalUserId` is the new stand-in account. */
  unmerge?(ctx: PlatformContext, change: { fullUserId: string; provisionalUserId: string; applicationId: string }): void;
}

/**
 * What the platform needs from the gateway: whether a user is connected, and ending sessions (ban, revoke, unmerge).
 */
export interface SessionControl {
  disconnectUser(userId: string, closeCode?: number): void;
  /** The one presence query: the user holds a gateway session (attached or resumable) for the application. */
  hasSession(userId: string, applicationId: string): boolean;
}

/** The URLs the platform is reachable at; filled in once the server listens (the port may be ephemeral). */
export interface PlatformUrls {
  http: string;
  api: string;
  gateway: string;
  /** The attachments origin's base URL (its own listener, PROTOCOL.md §14.4): attachment `url`s start with it. */
  attachments: string;
}

/** Everything a route or service needs, passed explicitly instead of living in module globals. */
export interface PlatformContext {
  options: ResolvedOptions;
  store: Store;
  ids: SnowflakeGenerator;
  logger: Logger;
  bus: EventBus;
  urls: PlatformUrls;
  sessions: SessionControl;
  signingKeys: OidcSigningKeys;
  externalTokens: OidcProviderVerifier;
  webhooks: WebhookDeliverer;
  /**
   * Outbound HTTP(S) to destinations configured over HTTP (webhooks, interactions endpoints, the portal's test
   * event); `outbound.guard` is the one check every such request passes (outbound/guard.ts), the proxy's included.
   */
  outbound: OutboundHttpClient;
  rateLimiter: RateLimiter;
  gatewayHooks: GatewayHooks;
  /** Data moved on merge/unmerge; feature areas append theirs. */
  accountMigrations: AccountMigration[];
  /** This start's development token (admin/dev-guard.ts): new at every start, printed by the CLI. */
  devToken: string;
  now(): number;
}
