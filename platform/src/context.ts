import type { Logger } from 'pino';
import type { EventBus } from './events/bus.js';
import type { SnowflakeGenerator } from './ids/snowflake.js';
import type { ResolvedOptions } from './options.js';
import type { Store } from './store/types.js';
import type { OidcSigningKeys } from './oauth/oidc/signing-keys.js';
import type { OidcProviderVerifier } from './partner-sdk/oidc/verifier.js';
import type { WebhookDeliverer } from './webhooks/deliverer.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { AccountMigration } from './accounts/migrations.js';
import type { GatewayIdentity } from './gateway/types.js';
import type { SessionsChange } from './gateway/types.js';
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
  /** Every handler sees every first-session / last-session change of a (user, application) pair. */
  sessionsChanged: Array<(change: SessionsChange) => void>;
  /** Main-gateway op 4 (voice/calls.ts); the first handler answers. None: op 4 stays an unknown opcode (4001). */
  voiceStateUpdate: Array<(identity: GatewayIdentity, sessionId: string, d: unknown) => true | 'invalid'>;
}

/** What the platform needs from the gateway to end a user's sessions (ban, revoke, unmerge). */
export interface SessionControl {
  disconnectUser(userId: string, closeCode?: number): void;
}

/** The URLs the platform is reachable at; filled in once the server listens (the port may be ephemeral). */
export interface PlatformUrls {
  http: string;
  api: string;
  gateway: string;
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
  rateLimiter: RateLimiter;
  gatewayHooks: GatewayHooks;
  /** Data moved on merge/unmerge; feature areas append theirs. */
  accountMigrations: AccountMigration[];
  /** This start's development token (admin/dev-guard.ts): new at every start, printed by the CLI. */
  devToken: string;
  now(): number;
}
