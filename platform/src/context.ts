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
  /** Data moved on merge/unmerge; feature areas append theirs. */
  accountMigrations: AccountMigration[];
  now(): number;
}
