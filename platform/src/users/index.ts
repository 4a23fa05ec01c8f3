/** Users (PROTOCOL.md §4): the current user, other users, their guilds and connections. */
import type { PlatformArea } from '../areas/area.js';
import type { PlatformKernel } from '../kernel.js';
import { registerArea } from '../http/api.js';
import { userRoutes } from './routes.js';

export function usersArea(ctx: PlatformKernel): PlatformArea {
  return { name: 'users', routes: (app) => registerArea(app, userRoutes(ctx)) };
}
