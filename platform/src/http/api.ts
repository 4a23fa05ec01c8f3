/**
 * The route convention of the HTTP API (platform/PROTOCOL.md §2 "Route convention"): each area is a fastify plugin
 * registered under API_PREFIX; a route declares in its options who may call it (`config.auth`), its rate-limit
 * bucket (`config.rateLimit`), the body encodings it takes (`config.bodyKinds`) and zod schemas for body, query and
 * params (`schema`). Handlers read `request.body` already validated and the caller from `callerOf`; business rules
 * live in the area's service and SQL in the store.
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { z } from 'zod';
import type { BearerPrincipal, BotPrincipal, Principal } from './auth.js';
import type { ZodTypeProvider } from './zod-schemas.js';

/** The one versioned prefix of the HTTP API. */
export const API_PREFIX = '/api/v10';

/** A fastify scope whose route schemas are zod schemas. */
export type ApiScope = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * One area of the API: registers its routes (paths relative to API_PREFIX) on its own encapsulated scope. What its
 * handlers use it takes when it is made (`userRoutes(kernel)`, `premiumRoutes(kernel, premium)`), never a context.
 */
export type ApiArea = (api: ApiScope) => void;

/** Registers an area as a fastify plugin under API_PREFIX (or another prefix for the unversioned aliases). */
export function registerArea(app: FastifyInstance, area: ApiArea, prefix: string = API_PREFIX): void {
  void app.register(
    async (scope) => {
      area(scope.withTypeProvider<ZodTypeProvider>() as unknown as ApiScope);
    },
    { prefix },
  );
}

/** The caller the route's `config.auth` authenticated (a route without `config.auth` has none: a programming error). */
export function callerOf(request: FastifyRequest): Principal {
  const principal = request.principal;
  if (!principal)
    throw new Error(`route ${request.routeOptions.url ?? '?'} reads a caller but declares no config.auth`);
  return principal;
}

export function botOf(request: FastifyRequest): BotPrincipal {
  const principal = callerOf(request);
  if (principal.kind !== 'bot') throw new Error('config.auth admits more than bots');
  return principal;
}

export function bearerOf(request: FastifyRequest): BearerPrincipal {
  const principal = callerOf(request);
  if (principal.kind !== 'bearer') throw new Error('config.auth admits more than user tokens');
  return principal;
}

/** The `schema.params` of a route with these path parameters (all strings; each route checks their form itself). */
export function pathParams<K extends string>(...names: K[]): z.ZodObject<Record<K, z.ZodString>> {
  return z.object(Object.fromEntries(names.map((name) => [name, z.string()])) as Record<K, z.ZodString>);
}

/**
 * The OAuth2 endpoints answer at both `/api/<path>` and `API_PREFIX/<path>` (published clients use either form).
 */
export function withUnversionedAlias(path: string): [string, string] {
  return [`/api${path}`, `${API_PREFIX}${path}`];
}
