import type { PlatformKernel } from '../kernel.js';
import type { AccessEnding } from '../accounts/access-ending.js';
import { z } from 'zod';
import { banUser, isBanned, liftBan } from '../accounts/bans.js';
import { assertMappingTargets } from '../activities/url-mappings.js';
import { upsertApplication, type ApplicationUpsert } from '../bot-api/applications/create.js';
import { applicationConfigSchema, guildConfigSchema, userConfigSchema } from '../config/schema.js';
import { upsertGuild } from '../config/guilds.js';
import { applyUserReferences, upsertUserBase } from '../config/users.js';
import { Errors } from '../http/errors.js';
import { pathParams, type ApiArea } from '../http/api.js';
import type { OutboundGuard } from '../outbound/guard.js';
import { assertOutboundUrl } from '../outbound/url-check.js';
import { PERMANENT_BAN, type ApplicationRecord, type UserRecord } from '../store/types.js';
import { partialGuildJson, userJson } from '../users/serialize.js';
import { devDispatchRoute } from './dispatch.js';

/** What the development routes change the platform through: the config's upserts, and bans (which end access). */
export interface DevRouteServices extends ApplicationUpsert, AccessEnding {}

const banSchema = z.object({
  /** Absent: permanent ban. */
  duration_seconds: z
    .number()
    .int()
    .min(1)
    .max(10 * 365 * 86_400)
    .optional(),
});

/**
 * Application as the developer sees it. Credentials only when asked with the dev token (GET /dev/state) or by a
 * request a web page cannot send (the JSON POST that creates the application); never logged.
 */
function applicationAdminJson(
  app: ApplicationRecord,
  { credentials }: { credentials: boolean },
): Record<string, unknown> {
  return {
    id: app.id,
    name: app.name,
    ...(credentials && { client_secret: app.clientSecret, bot_token: app.botToken }),
    bot_user_id: app.botUserId,
    owner_user_id: app.ownerUserId,
    public_key: app.publicKeyHex,
    redirect_uris: app.redirectUris,
    public_client: app.publicClient,
    webhook_url: app.webhookUrl,
    parent_application_id: app.parentId,
    identify_premium_approved: app.identifyPremiumApproved,
    provisional_accounts_enabled: app.provisionalAccountsEnabled,
    social_sdk_terms_accepted: app.socialSdkTermsAccepted,
    cover_image: app.coverImage,
    identity_providers: app.identityProviders.map((p) => ({ type: p.type, issuer: p.issuer, client_id: p.clientId })),
  };
}

function userAdminJson(ctx: PlatformKernel, user: UserRecord): Record<string, unknown> {
  return {
    ...userJson(ctx, user),
    email: user.email,
    premium_type: user.premiumType,
    banned: isBanned(user, ctx.now()),
    banned_until:
      user.bannedUntil === null
        ? null
        : user.bannedUntil >= PERMANENT_BAN
          ? 'permanent'
          : new Date(user.bannedUntil).toISOString(),
    provisional_application_id: user.provisionalApplicationId,
    restricted_by_user_id: user.restrictedByUserId,
    external_identities: ctx.store.identities.listForUser(user.id).map((identity) => ({
      application_id: identity.applicationId,
      external_auth_type: identity.authType,
      issuer: identity.issuer || null,
      external_id: identity.externalId,
    })),
    live_tokens: ctx.store.tokens.countForUser(user.id),
  };
}

/**
 * Development routes (OURS; registered only when devMode is on): the admin listing, creating applications,
 * users and guilds at run time, banning and unbanning, the webhook outbox, and gateway dispatches on demand.
 */
export const devRoutes =
  (ctx: DevRouteServices, guard: OutboundGuard): ApiArea =>
  (app) => {
    app.get('/dev/state', async (request) => ({
      applications: ctx.store.applications
        .list()
        .map((application) => applicationAdminJson(application, { credentials: request.devTokenPresented })),
      users: ctx.store.users.list().map((user) => userAdminJson(ctx, user)),
      guilds: ctx.store.guilds.list().map((guild) => ({
        ...partialGuildJson(guild, '', undefined),
        tag: guild.tag,
        owner_id: guild.ownerId,
        member_count: ctx.store.guilds.countMembers(guild.id),
        channels: ctx.store.guilds
          .listChannels(guild.id)
          .map((c) => ({ id: c.id, name: c.name, type: c.type, position: c.position, parent_id: c.parentId })),
      })),
    }));

    app.post('/dev/applications', { schema: { body: applicationConfigSchema } }, async (request, reply) => {
      const config = request.body;
      // The destinations it names pass the outbound guard, as they would when set through the API.
      await assertOutboundUrl(guard, ['webhook_url'], config.webhook_url);
      await assertMappingTargets(guard, config.url_mappings ?? []);
      const { app: created, created: isNew } = upsertApplication(ctx, config);
      return reply.code(isNew ? 201 : 200).send(applicationAdminJson(created, { credentials: true }));
    });

    app.post('/dev/users', { schema: { body: userConfigSchema } }, async (request, reply) => {
      const config = request.body;
      const user = ctx.store.transaction(() => applyUserReferences(ctx, upsertUserBase(ctx, config), config));
      return reply.code(201).send(userAdminJson(ctx, user));
    });

    app.post('/dev/guilds', { schema: { body: guildConfigSchema } }, async (request, reply) => {
      const config = request.body;
      const guild = ctx.store.transaction(() => upsertGuild(ctx, config));
      return reply
        .code(201)
        .send({ ...partialGuildJson(guild, '', undefined), tag: guild.tag, owner_id: guild.ownerId });
    });

    app.post(
      '/dev/users/:userId/ban',
      { schema: { params: pathParams('userId'), body: banSchema } },
      async (request) => {
        const body = request.body;
        const until = body.duration_seconds === undefined ? PERMANENT_BAN : ctx.now() + body.duration_seconds * 1000;
        const standIns = banUser(ctx, request.params.userId, until);
        const user = ctx.store.users.get(request.params.userId);
        if (!user) throw Errors.unknownUser();
        return {
          user: userAdminJson(ctx, user),
          restricted_accounts: standIns.map((standIn) => userAdminJson(ctx, standIn)),
        };
      },
    );

    app.delete('/dev/users/:userId/ban', { schema: { params: pathParams('userId') } }, async (request) =>
      userAdminJson(ctx, liftBan(ctx, request.params.userId)),
    );

    app.get('/dev/webhooks/outbox', async () =>
      ctx.store.outbox.list().map((entry) => ({
        id: entry.id,
        application_id: entry.applicationId,
        status: entry.status,
        attempts: entry.attempts,
        last_error: entry.lastError,
        created_at: new Date(entry.createdAt).toISOString(),
        next_attempt_at: new Date(entry.nextAttemptAt).toISOString(),
        delivered_at: entry.deliveredAt === null ? null : new Date(entry.deliveredAt).toISOString(),
        event: JSON.parse(entry.body) as unknown,
      })),
    );

    devDispatchRoute(ctx)(app);
  };
