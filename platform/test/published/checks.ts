/**
 * Building blocks of the published-shape test: a check names a route, its published success status and the schema
 * of its published body, and the compiler ties the three to the published description.
 */
import type { Paths } from 'discord-api-spec';
import { pathsList } from 'discord-api-spec';
import { expect } from 'vitest';
import type { ZodMiniType } from 'zod/mini';
import type { RouteEntry } from '../../src/index.js';
import type { TestResponse } from '../support/http.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type PathOf<M extends Method> = { [P in keyof Paths]: M extends keyof Paths[P] ? P : never }[keyof Paths];
type ResponsesOf<M extends Method, P extends PathOf<M>> = Paths[P][M & keyof Paths[P]] extends { responses: infer R }
  ? R
  : never;
type SuccessOf<R> = Extract<keyof R, `2${string}`>;

/** A schema accepts nothing but absence for a bodiless status (204). */
type BodySchema<T> = unknown extends T ? null : ZodMiniType<T>;

export interface Check {
  /** `GET /users/{user_id}` (the published path) or, for routes outside the OpenAPI description, our own URL. */
  name: string;
  method: string;
  path: string;
  status: number;
  schema: ZodMiniType | null;
  /** One or more real calls of the route (aliases, credential kinds, object states). */
  call: () => Promise<TestResponse | TestResponse[]>;
}

/**
 * A route of the published OpenAPI description. `status` must be one of its published success statuses and
 * `schema` a schema of that status's body type (null for 204), or this does not compile.
 */
export function published<M extends Method, P extends PathOf<M>, S extends SuccessOf<ResponsesOf<M, P>>>(
  method: M,
  path: P,
  status: S,
  schema: BodySchema<ResponsesOf<M, P>[S]>,
  call: Check['call'],
): Check {
  const upper = method.toUpperCase();
  return { name: `${upper} ${path}`, method: upper, path, status: Number(status), schema, call };
}

/** A published route that the OpenAPI description leaves out (the OAuth2 token endpoint); `url` is ours. */
export function documented<T>(
  method: Uppercase<Method>,
  url: string,
  status: number,
  schema: ZodMiniType<T>,
  call: Check['call'],
): Check {
  return { name: `${method} ${url}`, method, path: url, status, schema, call };
}

/** Runs the check's calls and validates each answer: published status, then the body against the schema. */
export async function runCheck(check: Check): Promise<void> {
  const responses = [await check.call()].flat();
  expect(responses.length).toBeGreaterThan(0);
  for (const response of responses) {
    expect(response.status, `${check.name}: ${response.text}`).toBe(check.status);
    if (check.schema === null) {
      expect(response.text, check.name).toBe('');
      continue;
    }
    const result = check.schema.safeParse(response.body);
    expect(result.success ? [] : result.error.issues, `${check.name}: ${response.text}`).toEqual([]);
  }
}

/**
 * A route's identity for comparison: API routes lose the `/api/v10` or `/api` prefix (the OAuth2 aliases are one
 * route) and parameter names (`:lobbyId`, `{lobby_id}` → `{}`); other routes (pages, the WebSocket) keep a `web`
 * mark so `GET /gateway` the socket is not `GET /api/v10/gateway`.
 */
export function routeKey(method: string, url: string): string {
  const api = /^\/api(?:\/v10)?(\/.*)$/.exec(url);
  const path = (api ? api[1]! : url).replace(/:[A-Za-z_]+|\{[A-Za-z_0-9]+\}/g, '{}');
  return `${method.toUpperCase()} ${api ? '' : 'web:'}${path}`;
}

/** The keys of every route of the published OpenAPI description. */
export function publishedRouteKeys(): Set<string> {
  const keys = new Set<string>();
  for (const [method, paths] of Object.entries(pathsList))
    for (const path of paths) keys.add(routeKey(method, `/api${path}`));
  return keys;
}

/** The keys of the routes the platform serves (HEAD routes are fastify's automatic twins of GET routes). */
export function servedRouteKeys(routes: readonly RouteEntry[]): Set<string> {
  return new Set(routes.filter((route) => route.method !== 'HEAD').map((route) => routeKey(route.method, route.url)));
}
