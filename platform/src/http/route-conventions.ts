/**
 * The per-route declarations of the route convention (api.ts), applied before validation, in this order:
 * authentication (`config.auth`) → rate limit keyed by the caller (`config.rateLimit` with `per`) → body encoding
 * (`config.bodyKinds`, JSON only by default). Then fastify validates the zod schemas (zod-schemas.ts). Buckets
 * keyed by the credential (a bare bucket name) are counted earlier, in onRequest (rate-limit-hooks.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PlatformArea } from '../areas/area.js';
import type { PlatformKernel } from '../kernel.js';
import type { RateLimiter } from './rate-limit.js';
import { authenticate, type Principal } from './auth.js';
import { assertBodyKind, type BodyKind } from './body.js';
import { Errors } from './errors.js';
import { hasScope } from '../oauth/scopes.js';
import { sendLimited, setLimitHeaders, type KeyedRateLimit } from './rate-limit-hooks.js';

/** Who may call a route: bots, user access tokens (holding `scope`), or either (a user token still needs `scope`). */
export interface RouteAuth {
  kind: 'bot' | 'bearer' | 'any';
  scope?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Accepted body encodings when the route has a body schema; default JSON only. */
    bodyKinds?: ReadonlyArray<Exclude<BodyKind, 'none' | 'unsupported'>>;
  }
  interface FastifyRequest {
    /** Set by `config.auth` before validation. */
    principal: Principal | undefined;
  }
}

function authorize(ctx: PlatformKernel, request: FastifyRequest, auth: RouteAuth): Principal {
  const principal = authenticate(ctx, request);
  if (auth.kind === 'bot' && principal.kind !== 'bot') throw Errors.onlyBotsCanUse();
  if (auth.kind === 'bearer' && principal.kind !== 'bearer') throw Errors.botsCannotUse();
  if (principal.kind === 'bearer' && auth.scope && !hasScope(principal.token.scopes, auth.scope))
    throw Errors.missingScope(auth.scope);
  return principal;
}

function limitKey(limit: KeyedRateLimit, principal: Principal): string {
  if (limit.per === 'user') return `user:${principal.user.id}`;
  if (limit.per === 'application') return `app:${principal.app.id}`;
  return `user:${principal.user.id}:app:${principal.app.id}`;
}

/** What the route convention reads: the kernel (who the caller is) and the rate limiter of the per-caller buckets. */
export interface RouteConventionServices extends PlatformKernel {
  rateLimiter: RateLimiter;
}

export function registerRouteConventions(app: FastifyInstance, ctx: RouteConventionServices): void {
  app.decorateRequest('principal', undefined);
  app.addHook('preValidation', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.auth) request.principal = authorize(ctx, request, config.auth);

    const limit = config.rateLimit;
    if (limit && typeof limit === 'object') {
      if (!request.principal)
        throw new Error(`route ${request.routeOptions.url ?? '?'} has a per-caller bucket but no config.auth`);
      const now = ctx.now();
      const state = ctx.rateLimiter.hit(limit.bucket, limitKey(limit, request.principal));
      setLimitHeaders(reply, state, now);
      if (state.limited) return sendLimited(reply, state, now, limit.per === 'application' ? 'shared' : 'user');
    }

    if (request.routeOptions.schema?.body !== undefined) assertBodyKind(request, config.bodyKinds ?? ['json']);
  });
}

/** The route convention as an area: its hooks come before the routes of every area that follows it. */
export function routeConventionsArea(ctx: RouteConventionServices): PlatformArea {
  return { name: 'route-conventions', routes: (app) => registerRouteConventions(app, ctx) };
}
