import type { AccessEnding } from '../accounts/access-ending.js';
import type { ApplicationUpsert } from '../bot-api/applications/create.js';
import type { GatewayStats } from '../gateway/types.js';
import type { OutboundHttpClient } from '../outbound/http-client.js';
import type { DeveloperAccount } from './account.js';
import type { LiveSessions } from './live-sessions.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PortalSessions } from './sessions.js';

/**
 * What the portal's forms change the platform through: the kernel, creating applications as the config does, ending
 * a bot's sessions when its token is reset, webhook waking (premium changes queue events), and its option slice:
 * whether cookies are `Secure` (TLS or an https public URL) and the webhook timeout of the test delivery.
 */
export interface PortalServices extends ApplicationUpsert, AccessEnding {
  options: {
    allowLocalhostIssuers: boolean;
    tls: boolean;
    publicUrl: string | undefined;
    webhookRetry: { timeoutMs: number };
  };
}

/** What the portal's routes share (built once by portalArea). */
export interface PortalDeps {
  ctx: PortalServices;
  account: DeveloperAccount;
  sessions: PortalSessions;
  live: LiveSessions;
  throttle: LoginThrottle;
  gateway: { stats(): GatewayStats };
  /** For the webhook test delivery: trusts the same extra CAs as webhook delivery. */
  outbound: OutboundHttpClient;
}
