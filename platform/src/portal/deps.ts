import type { PlatformContext } from '../context.js';
import type { GatewayStats } from '../gateway/types.js';
import type { OutboundHttpClient } from '../outbound/http-client.js';
import type { DeveloperAccount } from './account.js';
import type { LiveSessions } from './live-sessions.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PortalSessions } from './sessions.js';

/** What the portal's routes share (built once by portalArea). */
export interface PortalDeps {
  ctx: PlatformContext;
  account: DeveloperAccount;
  sessions: PortalSessions;
  live: LiveSessions;
  throttle: LoginThrottle;
  gateway: { stats(): GatewayStats };
  /** For the webhook test delivery: trusts the same extra CAs as webhook delivery. */
  outbound: OutboundHttpClient;
}
