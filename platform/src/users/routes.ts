import type { PlatformKernel } from '../kernel.js';
import { z } from 'zod';
import { bearerOf, callerOf, pathParams, type ApiArea } from '../http/api.js';
import { Errors } from '../http/errors.js';
import { queryBoolean, snowflakeSchema } from '../http/validation.js';
import { botSelfJson, connectionJson, partialGuildJson, userJson } from './serialize.js';
import { isSnowflake } from '../ids/snowflake.js';

const guildsQuerySchema = z.object({
  before: snowflakeSchema.optional(),
  after: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(200),
  with_counts: queryBoolean.default(false),
});

export const userRoutes =
  (ctx: PlatformKernel): ApiArea =>
  (app) => {
    // Bearer needs identify (sdk.* scopes imply it); a bot sees its own user.
    app.get(
      '/users/@me',
      { config: { auth: { kind: 'any', scope: 'identify' }, rateLimit: 'users.me' } },
      async (request) => {
        const principal = callerOf(request);
        if (principal.kind === 'bot') return botSelfJson(ctx, principal.user, principal.app);
        return userJson(ctx, principal.user, { app: principal.app, selfScopes: principal.token.scopes });
      },
    );

    // Needs scope guilds for Bearer tokens (spec); each guild carries banner.
    const guildsOptions = {
      config: { auth: { kind: 'any', scope: 'guilds' }, rateLimit: 'users.guilds' },
      schema: { querystring: guildsQuerySchema },
    } as const;
    app.get('/users/@me/guilds', guildsOptions, async (request) => {
      const principal = callerOf(request);
      const query = request.query;
      const before = query.before === undefined ? undefined : BigInt(query.before);
      const after = query.after === undefined ? undefined : BigInt(query.after);
      let guilds = ctx.store.guilds
        .listForUser(principal.user.id)
        .filter(
          (g) => (before === undefined || BigInt(g.id) < before) && (after === undefined || BigInt(g.id) > after),
        );
      // With `before`, the newest guilds below it are the page (like message pagination).
      guilds = before !== undefined && after === undefined ? guilds.slice(-query.limit) : guilds.slice(0, query.limit);
      return guilds.map((guild) =>
        partialGuildJson(
          guild,
          principal.user.id,
          query.with_counts ? ctx.store.guilds.countMembers(guild.id) : undefined,
        ),
      );
    });

    // Bearer only, needs scope connections; connections created by a game publisher are never returned (spec).
    app.get(
      '/users/@me/connections',
      { config: { auth: { kind: 'bearer', scope: 'connections' }, rateLimit: 'users.connections' } },
      async (request) => {
        const principal = bearerOf(request);
        return ctx.store.connections
          .listForUser(principal.user.id)
          .filter((connection) => connection.publisherApplicationId === null)
          .map(connectionJson);
      },
    );

    app.get(
      '/users/:userId',
      { config: { auth: { kind: 'any' }, rateLimit: 'users.get' }, schema: { params: pathParams('userId') } },
      async (request) => {
        const principal = callerOf(request);
        const id = request.params.userId;
        if (!isSnowflake(id)) throw Errors.unknownUser();
        const user = ctx.store.users.get(id);
        if (!user) throw Errors.unknownUser();
        return userJson(ctx, user, { app: principal.app });
      },
    );
  };
