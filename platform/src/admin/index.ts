/**
 * The development routes of the platform itself (PROTOCOL.md §9): state, configuration and dispatch under
 * `/api/v10/dev`, and the local client's (`rpc`, present once it has started). Assembled only in development mode.
 */
import type { PlatformArea } from '../areas/area.js';
import { API_PREFIX, registerArea } from '../http/api.js';
import { registerDevRpcRoutes, type RpcServer } from '../rpc/index.js';
import type { OutboundGuard } from '../outbound/guard.js';
import { devRoutes, type DevRouteServices } from './routes.js';

/** `guard` checks the destinations a development config names; `rpc` is the local client once it has started. */
export function devArea(ctx: DevRouteServices, guard: OutboundGuard, rpc: () => RpcServer | undefined): PlatformArea {
  return {
    name: 'dev',
    dependencies: ['dev-guard'],
    routes(app) {
      registerArea(app, devRoutes(ctx, guard));
      registerDevRpcRoutes(app, `${API_PREFIX}/dev`, rpc);
    },
  };
}
