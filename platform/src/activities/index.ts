/**
 * Activities (PROTOCOL.md §18): activity instances and their published read route, the per-application proxy with
 * its URL mappings, and the development routes. ActivityInstances keeps no state of its own (everything is in the
 * store), so the interactions area constructs its own to launch instances.
 */
import type { PlatformArea } from '../areas/area.js';
import type { PlatformContext } from '../context.js';
import { GuildService } from '../bot-api/guilds/service.js';
import { registerArea } from '../http/api.js';
import { activityDevRoutes } from './dev-routes.js';
import { ActivityInstances } from './instances.js';
import { registerActivityProxy } from './proxy.js';
import { activityRoutes } from './routes.js';

export function activitiesArea(ctx: PlatformContext): PlatformArea {
  const instances = new ActivityInstances(ctx);
  return {
    name: 'activities',
    routes(app) {
      registerArea(app, ctx, activityRoutes(instances));
      registerActivityProxy(app, ctx);
      if (ctx.options.devMode) registerArea(app, ctx, activityDevRoutes(instances, new GuildService(ctx)));
    },
  };
}
