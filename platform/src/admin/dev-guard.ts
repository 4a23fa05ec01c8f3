import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PlatformArea } from '../areas/area.js';
import { constantTimeEqual } from '../crypto/tokens.js';
import { API_PREFIX } from '../http/api.js';
import { ApiError } from '../http/errors.js';
import { OUTBOUND_VIA_TOKEN } from '../outbound/guard.js';

/** Every development route lives under this prefix (PROTOCOL.md §9). */
export const DEV_PREFIX = `${API_PREFIX}/dev/`;
/** The per-start development token (RunningPlatform.devToken, printed at start). */
export const DEV_TOKEN_HEADER = 'x-svcpp-dev-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request carries this start's development token. */
    devTokenPresented: boolean;
  }
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * A web page can send a cross-site POST only as a "simple" request: no custom header and a form or text/plain
 * content type (a no-cors fetch, an HTML form). So state-changing development routes take either a JSON content
 * type or the dev token header, neither of which a page can send to another site without a CORS preflight, which
 * this platform never grants. Reads stay open, but serve credentials only with the token (see routes.ts). No dev
 * route answers a request the platform itself sent.
 */
export function registerDevGuard(app: FastifyInstance, devToken: string): void {
  app.decorateRequest('devTokenPresented', false);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.routeOptions.url?.startsWith(DEV_PREFIX)) return;
    // A request the platform itself sends (a webhook, an interaction, the activity proxy: outbound/guard.ts)
    // carries its Via. The guard already keeps them off the platform's own ports; this holds even if one got here
    // (another node's platform on this machine, an operator's allowance that covers it).
    if (OUTBOUND_VIA_TOKEN.test(String(request.headers.via ?? ''))) {
      throw new ApiError(403, 0, '403: Development routes do not answer requests the platform itself sends');
    }
    const presented = request.headers[DEV_TOKEN_HEADER];
    request.devTokenPresented = typeof presented === 'string' && constantTimeEqual(presented, devToken);
    if (request.method === 'GET' || request.method === 'HEAD' || request.devTokenPresented) return;
    if (isJson(request.headers['content-type'])) return;
    throw new ApiError(
      403,
      0,
      '403: Development routes take Content-Type: application/json or the X-Svcpp-Dev-Token header',
    );
  });
}

/** The guard as the first area of a development platform: its onRequest hook runs before every other area's. */
export function devGuardArea(devToken: string): PlatformArea {
  return { name: 'dev-guard', routes: (app) => registerDevGuard(app, devToken) };
}
