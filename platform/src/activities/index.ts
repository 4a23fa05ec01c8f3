/**
 * Activities (PROTOCOL.md §18): activity instances and their published read route, the per-application proxy with
 * its URL mappings, and the development routes. ActivityInstances keeps no state of its own (everything is in the
 * store), so the interactions area constructs its own to launch instances.
 */
import type { PlatformArea } from '../areas/area.js';
import { GuildService } from '../bot-api/guilds/service.js';
import { registerArea } from '../http/api.js';
import { activityDevRoutes } from './dev-routes.js';
import { ActivityInstances } from './instances.js';
import { registerActivityProxy, type ActivityProxyServices } from './proxy.js';
import { activityRoutes } from './routes.js';

/** `ctx.guard` checks the proxy's targets and the URL mappings the development routes set. */
export function activitiesArea(ctx: ActivityProxyServices, { devMode }: { devMode: boolean }): PlatformArea {
  const instances = new ActivityInstances(ctx);
  return {
    name: 'activities',
    routes(app) {
      registerArea(app, activityRoutes(instances));
      registerActivityProxy(app, ctx);
      if (devMode) registerArea(app, activityDevRoutes(ctx, ctx.guard, instances, new GuildService(ctx)));
    },
  };
}
