import type { FastifyInstance } from 'fastify';

export interface HttpRoute {
  method: string;
  /** The route pattern as registered, with `:param` placeholders. */
  url: string;
}

/**
 * Records every route registered on `app` from now on (one entry per method), so tools and tests can go over the
 * whole HTTP surface — new routes included — without a hand-kept list.
 */
export function collectRoutes(app: FastifyInstance): readonly HttpRoute[] {
  const routes: HttpRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  return routes;
}
