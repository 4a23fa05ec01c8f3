import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
}

/**
 * Records every route registered on `app` from now on. The published-shape test compares this table with the
 * published route list, so a new route cannot go out without its response being checked or its being declared
 * as not published.
 */
export function recordRoutes(app: FastifyInstance): readonly RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  return routes;
}
