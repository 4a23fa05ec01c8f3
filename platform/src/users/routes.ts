import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PlatformContext } from '../context.js';
import { requireAny, requireBearer } from '../http/auth.js';
import { Errors, invalidFormBody } from '../http/errors.js';
import { snowflakeSchema, zodErrorTree } from '../http/validation.js';
import { botSelfJson, connectionJson, partialGuildJson, userJson } from './serialize.js';

const API = '/api/v10';

/** Query booleans accept true|True|1 and false|False|0 (published rule). */
const queryBoolean = z.enum(['true', 'True', '1', 'false', 'False', '0']).transform((v) => v === 'true' || v === 'True' || v === '1');

const guildsQuerySchema = z.object({
  before: snowflakeSchema.optional(),
  after: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(200),
  with_counts: queryBoolean.default(false),
});

function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) throw invalidFormBody(zodErrorTree(result.error, query));
  return result.data;
}

export function registerUserRoutes(app: FastifyInstance, ctx: PlatformContext): void {
  // Bearer needs identify (sdk.* scopes imply it); a bot sees its own user.
  app.get(`${API}/users/@me`, { config: { rateLimit: 'users.me' } }, async (request) => {
    const principal = requireAny(ctx, request, 'identify');
    if (principal.kind === 'bot') return botSelfJson(ctx, principal.user, principal.app);
    return userJson(ctx, principal.user, { app: principal.app, selfScopes: principal.token.scopes });
  });

  // Needs scope guilds for Bearer tokens (spec); each guild carries banner.
  app.get(`${API}/users/@me/guilds`, { config: { rateLimit: 'users.guilds' } }, async (request) => {
    const principal = requireAny(ctx, request, 'guilds');
    const query = parseQuery(guildsQuerySchema, request.query);
    const before = query.before === undefined ? undefined : BigInt(query.before);
    const after = query.after === undefined ? undefined : BigInt(query.after);
    let guilds = ctx.store.guilds
      .listForUser(principal.user.id)
      .filter((g) => (before === undefined || BigInt(g.id) < before) && (after === undefined || BigInt(g.id) > after));
    // With `before`, the newest guilds below it are the page (like message pagination).
    guilds = before !== undefined && after === undefined ? guilds.slice(-query.limit) : guilds.slice(0, query.limit);
    return guilds.map((guild) =>
      partialGuildJson(guild, principal.user.id, query.with_counts ? ctx.store.guilds.countMembers(guild.id) : undefined),
    );
  });

  // Bearer only, needs scope connections; connections created by a game publisher are never returned (spec).
  app.get(`${API}/users/@me/connections`, { config: { rateLimit: 'users.connections' } }, async (request) => {
    const principal = requireBearer(ctx, request, 'connections');
    return ctx.store.connections
      .listForUser(principal.user.id)
      .filter((connection) => connection.publisherApplicationId === null)
      .map(connectionJson);
  });

  app.get<{ Params: { userId: string } }>(`${API}/users/:userId`, { config: { rateLimit: 'users.get' } }, async (request) => {
    const principal = requireAny(ctx, request);
    const id = request.params.userId;
    if (!/^\d{1,20}$/.test(id)) throw Errors.unknownUser();
    const user = ctx.store.users.get(id);
    if (!user) throw Errors.unknownUser();
    return userJson(ctx, user, { app: principal.app });
  });
}
