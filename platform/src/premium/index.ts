/**
 * Premium apps (PROTOCOL.md "Premium apps"): the service, its published routes and its development routes.
 * PremiumService keeps no state of its own (everything is in the store), so other areas may construct their own.
 */
import type { PlatformArea } from '../areas/area.js';
import type { WakesWebhooks } from '../webhooks/waking.js';
import { registerArea } from '../http/api.js';
import { premiumDevRoutes } from './dev-routes.js';
import { premiumRoutes } from './routes.js';
import { PremiumService } from './service.js';

/** Every change queues webhook events (`wakeWebhooks` after its commit); `devMode` adds the development routes. */
export function premiumArea(ctx: WakesWebhooks, { devMode }: { devMode: boolean }): PlatformArea {
  const premium = new PremiumService(ctx);
  return {
    name: 'premium',
    routes(app) {
      registerArea(app, premiumRoutes(ctx, premium));
      if (devMode) registerArea(app, premiumDevRoutes(ctx, premium));
    },
  };
}
