/**
 * The developer portal (PROTOCOL.md §15): server-rendered pages under /developers for the settings the public
 * service's developer portal offers, behind a sign-in for the platform's developer account. No script runs in the
 * browser; every change is a form post with an anti-forgery token, answered with a redirect (or the same page and
 * its field errors).
 */
import type { PlatformArea } from '../areas/area.js';
import type { PlatformContext } from '../context.js';
import type { GatewayStats } from '../gateway/types.js';
import { developerAccount } from './account.js';
import type { PortalDeps } from './deps.js';
import { LiveSessions } from './live-sessions.js';
import { LoginThrottle } from './login-throttle.js';
import { registerApplicationRoutes } from './routes/applications.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { PortalSessions } from './sessions.js';

export function portalArea(ctx: PlatformContext, gateway: { stats(): GatewayStats }): PlatformArea {
  const live = new LiveSessions(ctx.now);
  const deps: PortalDeps = {
    ctx,
    account: developerAccount(ctx),
    sessions: new PortalSessions(ctx.now),
    live,
    throttle: new LoginThrottle(ctx.now),
    gateway,
    outbound: ctx.outbound,
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
