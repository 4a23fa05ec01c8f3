import { createHash } from 'node:crypto';

/** A fixed-window limit: at most `limit` requests per `windowSeconds`. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window rate limits per (bucket, key). Windows follow the platform clock so tests can drive them.
 * Bucket names are listed in PROTOCOL.md; `global` applies to every request under /api.
 */
export const DEFAULT_RATE_LIMITS: Record<string, RateLimitRule> = {
  // Published: 50 requests per second per bot (per IP when unauthenticated).
  global: { limit: 50, windowSeconds: 1 },
  // Published: 10,000 responses with status 401/403/429 per 10 minutes per IP.
  'invalid-requests': { limit: 10_000, windowSeconds: 600 },
  'oauth2.authorize': { limit: 120, windowSeconds: 60 },
  'oauth2.token': { limit: 120, windowSeconds: 60 },
  // Published: merges have a strict per-user limit; svcpp keys it per client.
  'oauth2.token.merge': { limit: 10, windowSeconds: 60 },
  'oauth2.device': { limit: 60, windowSeconds: 60 },
  'oauth2.revoke': { limit: 60, windowSeconds: 60 },
  'oauth2.me': { limit: 60, windowSeconds: 10 },
  'partner-sdk.token': { limit: 120, windowSeconds: 60 },
  'partner-sdk.unmerge': { limit: 30, windowSeconds: 60 },
  'partner-sdk.child-token': { limit: 60, windowSeconds: 60 },
  'partner-sdk.account': { limit: 30, windowSeconds: 60 },
  'users.me': { limit: 100, windowSeconds: 10 },
  'users.get': { limit: 100, windowSeconds: 10 },
  'users.guilds': { limit: 20, windowSeconds: 10 },
  'users.connections': { limit: 20, windowSeconds: 10 },
  'guilds.channels': { limit: 20, windowSeconds: 10 },
  // Published: one reaction write per 0.25 s.
  reactions: { limit: 4, windowSeconds: 1 },
  // Command writes, per application (PROTOCOL.md §17.1).
  'commands.write': { limit: 50, windowSeconds: 20 },
  // Published development limits, counted per application (not per token): 100 per 2 h per mutating lobby route,
  // 20 per 2 h for channel linking.
  'lobbies.write': { limit: 100, windowSeconds: 7_200 },
  'lobbies.message': { limit: 100, windowSeconds: 7_200 },
  'lobbies.link': { limit: 20, windowSeconds: 7_200 },
  // Social layer (PROTOCOL.md §10), counted per user (dm.send per user and application) by the routes.
  relationships: { limit: 50, windowSeconds: 60 },
  'presence.update': { limit: 5, windowSeconds: 20 },
  'dm.send': { limit: 100, windowSeconds: 7_200 },
};

export interface RateLimitState {
  bucket: string;
  limit: number;
  remaining: number;
  /** Unix time (ms) at which the window resets. */
  resetAt: number;
  limited: boolean;
}

interface Window {
  startedAt: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly rules: Record<string, RateLimitRule>;

  constructor(
    overrides: Record<string, RateLimitRule>,
    private readonly now: () => number,
  ) {
    this.rules = { ...DEFAULT_RATE_LIMITS, ...overrides };
  }

  /** Counts one request against (bucket, key) and reports the state after counting. */
  hit(bucket: string, key: string): RateLimitState {
    return this.take(bucket, key, 1);
  }

  /** Reports the state without counting (used by the invalid-request limit before a response exists). */
  peek(bucket: string, key: string): RateLimitState {
    return this.take(bucket, key, 0);
  }

  private take(bucket: string, key: string, cost: number): RateLimitState {
    const rule = this.rules[bucket];
    if (!rule) throw new Error(`unknown rate limit bucket ${bucket}`);
    const now = this.now();
    const windowMs = rule.windowSeconds * 1000;
    const id = `${bucket}\u0000${key}`;
    let window = this.windows.get(id);
    if (!window || now - window.startedAt >= windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(id, window);
      this.sweep(now);
    }
    const limited = window.count + cost > rule.limit;
    if (!limited) window.count += cost;
    return {
      bucket,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - window.count),
      resetAt: window.startedAt + windowMs,
      limited: cost > 0 ? limited : window.count >= rule.limit,
    };
  }

  /** Drops expired windows now and then so keys from one-off clients do not accumulate. */
  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [id, window] of this.windows) {
      const bucket = id.slice(0, id.indexOf('\u0000'));
      const rule = this.rules[bucket];
      if (!rule || now - window.startedAt >= rule.windowSeconds * 1000) this.windows.delete(id);
    }
  }
}

/** The opaque X-RateLimit-Bucket value: stable per bucket name, meaningless to clients. */
export function bucketHash(bucket: string): string {
  return createHash('sha1').update(`svcpp:${bucket}`).digest('hex').slice(0, 32);
}
