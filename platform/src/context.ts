import type { PlatformKernel } from './kernel.js';
import type { ResolvedOptions } from './options.js';
import type { OidcSigningKeys } from './oauth/oidc/signing-keys.js';
import type { OutboundHttpClient } from './outbound/http-client.js';
import type { WebhookDeliverer } from './webhooks/deliverer.js';
import type { RateLimiter } from './http/rate-limit.js';

/**
 * What the platform needs from the gateway: whether a user is connected, and ending sessions (ban, revoke, unmerge).
 */
export interface SessionControl {
  disconnectUser(userId: string, closeCode?: number): void;
  /** The one presence query: the user holds a gateway session (attached or resumable) for the application. */
  hasSession(userId: string, applicationId: string): boolean;
}

/** The URLs the platform is reachable at; known once the server listens (the port may be ephemeral). */
export interface PlatformUrls {
  http: string;
  api: string;
  gateway: string;
  /** The attachments origin's base URL (its own listener, PROTOCOL.md §14.4): attachment `url`s start with it. */
  attachments: string;
}

/**
 * The kernel and the platform-wide services that many areas share, built once by startPlatform and never changed
 * afterwards. Values known only later are read through it: `urls` once the server listens, `sessions` once the
 * gateway exists (before then: nobody is connected). Code that needs only the kernel takes a PlatformKernel.
 */
export interface PlatformContext extends PlatformKernel {
  options: ResolvedOptions;
  /** Read when used (a getter): empty strings until the server listens. */
  readonly urls: PlatformUrls;
  sessions: SessionControl;
  signingKeys: OidcSigningKeys;
  webhooks: WebhookDeliverer;
  /**
   * Outbound HTTP(S) to destinations configured over HTTP (webhooks, interactions endpoints, the portal's test
   * event); `outbound.guard` is the one check every such request passes (outbound/guard.ts), the proxy's included.
   */
  outbound: OutboundHttpClient;
  rateLimiter: RateLimiter;
  /** This start's development token (admin/dev-guard.ts): new at every start, printed by the CLI. */
  devToken: string;
}
