/**
 * Premium apps (PROTOCOL.md "Premium apps"): the service, its published routes and its development routes.
 * PremiumService keeps no state of its own (everything is in the store), so other areas may construct their own.
 */
import type { PlatformArea } from '../areas/area.js';
import type { PlatformContext } from '../context.js';
import { registerArea } from '../http/api.js';
import { premiumDevRoutes } from './dev-routes.js';
import { premiumRoutes } from './routes.js';
import { PremiumService } from './service.js';

export function premiumArea(ctx: PlatformContext): PlatformArea {
  const premium = new PremiumService(ctx);
  return {
    name: 'premium',
    routes(app) {
      registerArea(app, ctx, premiumRoutes(premium));
      if (ctx.options.devMode) registerArea(app, ctx, premiumDevRoutes(premium));
    },
  };
}
