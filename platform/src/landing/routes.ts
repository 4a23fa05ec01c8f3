import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PlatformArea } from '../areas/area.js';
import type { PlatformUrls } from '../http/urls.js';
import { Errors } from '../http/errors.js';
import { landingPage } from './page.js';
import { isShippedDoc, readShippedDoc } from './package-files.js';
import { landingSummary } from './summary.js';

/** Headers of the landing page: as the portal's pages, no script, no framing, only this origin's stylesheet. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * JSON when the client asks for it and not for HTML: `Accept: application/json` (an API client, curl -H …) gets
 * JSON; a browser (text/html first) and a client that accepts anything get the page.
 */
function wantsJson(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '').toLowerCase();
  return /\bapplication\/json\b/.test(accept) && !/\btext\/html\b/.test(accept);
}

/**
 * `GET /`, the landing page (PROTOCOL.md §2 "Landing page"), and `GET /docs/<path>`, the documents
 * this platform ships, as plain UTF-8 text (Markdown).
 */
/** What the landing page shows: the platform's URLs (read at each request), development mode and the database. */
export interface LandingFacts {
  urls: () => PlatformUrls;
  devMode: boolean;
  database: string;
}

export function registerLanding(app: FastifyInstance, facts: LandingFacts): void {
  app.get('/', async (request, reply) => {
    const summary = landingSummary(facts.urls(), facts.devMode, facts.database);
    reply.header('vary', 'Accept');
    if (wantsJson(request)) return reply.header('cache-control', 'no-cache').send(summary);
    return reply.headers(PAGE_HEADERS).send(landingPage(summary));
  });

  app.get<{ Params: { '*': string } }>('/docs/*', async (request, reply) => {
    const file = request.params['*'];
    if (!isShippedDoc(file)) return reply.code(404).send(Errors.notFound().body());
    return reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'no-cache')
      .send(readShippedDoc(file));
  });
}

export function landingArea(facts: LandingFacts): PlatformArea {
  return { name: 'landing', routes: (app) => registerLanding(app, facts) };
}
