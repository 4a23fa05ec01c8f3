/**
 * The development routes of the platform itself (PROTOCOL.md §9): state, configuration and dispatch under
 * `/api/v10/dev`, and the local client's (`rpc`, present once it has started). Assembled only in development mode.
 */
import type { PlatformArea } from '../areas/area.js';
import type { PlatformContext } from '../context.js';
import { API_PREFIX, registerArea } from '../http/api.js';
import { registerDevRpcRoutes, type RpcServer } from '../rpc/index.js';
import { devRoutes } from './routes.js';

export function devArea(ctx: PlatformContext, rpc: () => RpcServer | undefined): PlatformArea {
  return {
    name: 'dev',
    dependencies: ['dev-guard'],
    routes(app) {
      registerArea(app, ctx, devRoutes);
      registerDevRpcRoutes(app, `${API_PREFIX}/dev`, rpc);
    },
  };
}
