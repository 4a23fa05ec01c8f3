/**
 * The developer portal (PROTOCOL.md §15): server-rendered pages under /developers for the settings the public
 * service's developer portal offers, behind a sign-in for the platform's developer account. No script runs in the
 * browser; every change is a form post with an anti-forgery token, answered with a redirect (or the same page and
 * its field errors).
 */
import type { PlatformArea } from '../areas/area.js';
import type { PlatformConfig } from '../config/schema.js';
import type { GatewayStats } from '../gateway/types.js';
import { developerAccount } from './account.js';
import type { PortalDeps, PortalServices } from './deps.js';
import type { OutboundHttpClient } from '../outbound/http-client.js';
import { LiveSessions } from './live-sessions.js';
import { LoginThrottle } from './login-throttle.js';
import { registerApplicationRoutes } from './routes/applications.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { PortalSessions } from './sessions.js';

/**
 * `outbound` sends the webhook test delivery; who may sign in comes from the config's `developer_account` or, in
 * development mode, this start's `devToken`.
 */
export function portalArea(
  ctx: PortalServices & { options: { config: PlatformConfig | undefined; devMode: boolean } },
  {
    gateway,
    outbound,
    devToken,
  }: { gateway: { stats(): GatewayStats }; outbound: OutboundHttpClient; devToken: string },
): PlatformArea {
  const live = new LiveSessions(ctx.now);
  const deps: PortalDeps = {
    ctx,
    account: developerAccount(ctx.options, devToken),
    sessions: new PortalSessions(ctx.now),
    live,
    throttle: new LoginThrottle(ctx.now),
    gateway,
    outbound,
  };
  return {
    name: 'portal',
    routes(app) {
      registerAuthRoutes(app, deps);
      registerApplicationRoutes(app, deps);
      registerSessionRoutes(app, deps);
    },
    gateway: { sessionsObserved: (change) => live.observed(change) },
  };
}
