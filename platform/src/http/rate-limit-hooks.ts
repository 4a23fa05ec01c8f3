import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { credentialKey } from './credential-key.js';
import { bucketHash, type RateLimiter, type RateLimitState } from './rate-limit.js';

/**
 * A bucket counted per caller rather than per credential (route-conventions.ts): per user (every token of the user
 * shares it), per application (every player of a game shares it: answered with scope `shared`), or per user and
 * application.
 */
export interface KeyedRateLimit {
  bucket: string;
  per: 'user' | 'application' | 'user-application';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Rate limit bucket of the route (see DEFAULT_RATE_LIMITS): a name counts per credential here, in onRequest; a
     * KeyedRateLimit counts per caller once the route's config.auth has authenticated it (route-conventions.ts).
     */
    rateLimit?: string | KeyedRateLimit;
  }
}

const INVALID_STATUSES = new Set([401, 403, 429]);

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function setLimitHeaders(reply: FastifyReply, state: RateLimitState, now: number): void {
  reply.header('X-RateLimit-Limit', String(state.limit));
  reply.header('X-RateLimit-Remaining', String(state.remaining));
  reply.header('X-RateLimit-Reset', seconds(state.resetAt));
  reply.header('X-RateLimit-Reset-After', seconds(state.resetAt - now));
  reply.header('X-RateLimit-Bucket', bucketHash(state.bucket));
}

export function sendLimited(
  reply: FastifyReply,
  state: RateLimitState,
  now: number,
  scope: 'user' | 'global' | 'shared',
): FastifyReply {
  const retryAfter = Math.max(0, state.resetAt - now) / 1000;
  const global = scope === 'global';
  reply.code(429);
  reply.header('Retry-After', String(Math.ceil(retryAfter)));
  reply.header('X-RateLimit-Scope', scope);
  if (global) reply.header('X-RateLimit-Global', 'true');
  return reply.send({ message: 'You are being rate limited.', retry_after: Number(retryAfter.toFixed(3)), global });
}

/** Applies the global limit, the invalid-request limit and the route's own bucket, with the published headers. */
export function registerRateLimitHooks(app: FastifyInstance, limiter: RateLimiter, now: () => number): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const isApi = request.url.startsWith('/api/');
    const configured = request.routeOptions.config.rateLimit;
    const bucket = typeof configured === 'string' ? configured : undefined;
    if (!isApi && !bucket) return;
    const at = now();

    const invalid = limiter.peek('invalid-requests', request.ip);
    if (invalid.limited) return sendLimited(reply, invalid, at, 'global');

    const key = credentialKey(request);
    const global = limiter.hit('global', key);
    if (global.limited) return sendLimited(reply, global, at, 'global');

    if (!bucket) return;
    const state = limiter.hit(bucket, key);
    setLimitHeaders(reply, state, at);
    if (state.limited) return sendLimited(reply, state, at, 'user');
  });

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    if (INVALID_STATUSES.has(reply.statusCode) && reply.getHeader('X-RateLimit-Scope') !== 'shared') {
      limiter.hit('invalid-requests', request.ip);
    }
  });
}
