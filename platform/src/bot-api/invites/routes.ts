/**
 * Guild invites for bots (PROTOCOL.md §14.7): create (JSON, or multipart with `target_users_file`), list a channel's
 * invites (partial roles), get and delete one, and the target users: read as CSV, replace, and the processing job's
 * status.
 */
import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { randomToken } from '../../crypto/tokens.js';
import { AuditAction } from '../guilds/audit.js';
import { partialRoleJson } from '../guilds/bot-serialize.js';
import { GuildErrors } from '../guilds/errors.js';
import { has, Permission } from '../guilds/permissions.js';
import { Intent, type GuildService } from '../guilds/service.js';
import type { Principal } from '../../http/auth.js';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { auditReason } from '../../http/audit-reason.js';
import { addFieldError, invalidFormBody, type ErrorTree } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import { queryBoolean, snowflakeSchema } from '../../http/validation.js';
import type { InviteRecord } from '../../store/bot-types.js';
import { knownUserJson } from '../../users/serialize.js';
import { parseTargetUsersCsv, targetUsersCsv } from './target-users.js';

/** Target-users job states (published): 0 UNSPECIFIED, 1 PROCESSING, 2 COMPLETED, 3 FAILED. */
const JobStatus = { PROCESSING: 1, COMPLETED: 2, FAILED: 3 } as const;
const GUILD_INVITE = 0;

const createSchema = z.object({
  // discord.js sends unset options as null: null means the default.
  max_age: z
    .number()
    .int()
    .min(0)
    .max(604_800)
    .nullish()
    .transform((v) => v ?? 86_400),
  max_uses: z
    .number()
    .int()
    .min(0)
    .max(100)
    .nullish()
    .transform((v) => v ?? 0),
  temporary: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  unique: z.boolean().nullish(),
  target_type: z.literal([1, 2]).nullish(),
  target_user_id: snowflakeSchema.nullish(),
  target_application_id: snowflakeSchema.nullish(),
  role_ids: z.array(snowflakeSchema).max(250).nullish(),
});

const auth = { auth: { kind: 'any', scope: 'guilds' } } as const;
const withFile = { ...auth, bodyKinds: ['json', 'multipart'] } as const;

function targetFile(files: UploadedFile[]): UploadedFile | undefined {
  return files.find((file) => file.field === 'target_users_file');
}

function parseFile(file: UploadedFile): string[] {
  const parsed = parseTargetUsersCsv(file.data.toString('utf8'));
  if (parsed.errors.length > 0) {
    const tree: ErrorTree = {};
    for (const message of parsed.errors.slice(0, 25))
      addFieldError(tree, ['target_users_file'], { code: 'TARGET_USERS_FILE_INVALID', message });
    throw invalidFormBody(tree);
  }
  return parsed.userIds;
}

export const guildInviteRoutes =
  (ctx: PlatformKernel, guilds: GuildService): ApiArea =>
  (app) => {
    const store = ctx.store.botGuilds;

    const inviteJson = (invite: InviteRecord, withMetadata: boolean) => {
      const { guild, channel } = guilds.channel(invite.channelId);
      const roles = guilds.roles(guild).filter((role) => invite.roleIds.includes(role.id));
      return {
        type: GUILD_INVITE,
        code: invite.code,
        guild: {
          id: guild.id,
          name: guild.name,
          icon: guild.icon,
          splash: null,
          banner: guild.banner,
          description: null,
          features: guild.features,
          verification_level: 0,
          vanity_url_code: null,
          nsfw: false,
          nsfw_level: 0,
          premium_subscription_count: 0,
        },
        guild_id: guild.id,
        channel: { id: channel.id, name: channel.name, type: channel.type },
        inviter: knownUserJson(ctx, invite.inviterId),
        expires_at: invite.maxAge === 0 ? null : new Date(invite.createdAt + invite.maxAge * 1000).toISOString(),
        flags: 0,
        ...(roles.length > 0 && { roles: roles.map(partialRoleJson) }),
        ...(withMetadata && {
          uses: invite.uses,
          max_uses: invite.maxUses,
          max_age: invite.maxAge,
          temporary: invite.temporary,
          created_at: new Date(invite.createdAt).toISOString(),
        }),
      };
    };

    /** The target list is processed as a job: finished here before the answer, its status kept for the job route. */
    const applyTargets = (invite: InviteRecord, userIds: string[]): InviteRecord => {
      const startedAt = ctx.now();
      store.setTargetUsers(invite.code, userIds);
      const updated: InviteRecord = {
        ...invite,
        job: {
          status: JobStatus.COMPLETED,
          total: userIds.length,
          processed: userIds.length,
          createdAt: startedAt,
          completedAt: ctx.now(),
          error: null,
        },
      };
      store.updateInvite(updated);
      return updated;
    };

    const findInvite = (code: string): InviteRecord => {
      const invite = /^[A-Za-z0-9_-]{1,64}$/.test(code) ? store.getInvite(code) : undefined;
      if (!invite) throw GuildErrors.unknownInvite();
      return invite;
    };

    /** The inviter, or MANAGE_GUILD (or VIEW_AUDIT_LOG to read). */
    const requireTargetAccess = (caller: Principal, invite: InviteRecord, read: boolean) => {
      if (invite.inviterId === caller.user.id) return;
      const guild = guilds.guild(invite.guildId);
      const member = guilds.requireMember(guild, caller.user.id);
      const permissions = guilds.guildPermissions(guild, member);
      if (has(permissions, Permission.MANAGE_GUILD) || (read && has(permissions, Permission.VIEW_AUDIT_LOG))) return;
      throw GuildErrors.missingPermissions();
    };

    app.post(
      '/channels/:channelId/invites',
      { config: withFile, schema: { params: pathParams('channelId'), body: createSchema } },
      async (request) => {
        const caller = callerOf(request);
        const { guild, channel } = guilds.channel(request.params.channelId);
        const permissions = guilds.requireChannelPermissions(
          guild,
          channel,
          caller.user.id,
          Permission.CREATE_INSTANT_INVITE,
        );
        const body = request.body;
        const roleIds = [...new Set(body.role_ids ?? [])];
        if (roleIds.length > 0) {
          if (!has(permissions, Permission.MANAGE_ROLES)) throw GuildErrors.missingPermissions();
          const roles = new Map(guilds.roles(guild).map((role) => [role.id, role]));
          roleIds.forEach((id, index) => {
            if (!roles.has(id) || id === guild.id)
              throw invalidFormBody(
                addFieldError({}, ['role_ids', index], { code: 'UNKNOWN_ROLE', message: 'Unknown role.' }),
              );
          });
          // Whoever joins through the invite gets these roles: a grant by the inviter, under the same rule as any.
          guilds.requireMayGrant(
            guild,
            guilds.requireMember(guild, caller.user.id),
            roleIds.map((id) => roles.get(id)!),
          );
        }
        const file = targetFile(request.files);
        const targets = file ? parseFile(file) : undefined;
        let invite: InviteRecord = {
          code: randomToken(6)
            .replace(/[^A-Za-z0-9]/g, 'x')
            .slice(0, 10),
          guildId: guild.id,
          channelId: channel.id,
          inviterId: caller.user.id,
          maxAge: body.max_age,
          maxUses: body.max_uses,
          uses: 0,
          temporary: body.temporary,
          roleIds,
          createdAt: ctx.now(),
          job: null,
        };
        ctx.store.transaction(() => {
          store.insertInvite(invite);
          if (targets) invite = applyTargets(invite, targets);
          guilds.audit({
            guildId: guild.id,
            userId: caller.user.id,
            targetId: invite.code,
            actionType: AuditAction.INVITE_CREATE,
            changes: null,
            options: null,
            reason: auditReason(request),
          });
        });
        const json = inviteJson(invite, true);
        guilds.publish(
          guild.id,
          'INVITE_CREATE',
          { ...json, channel_id: channel.id, guild_id: guild.id, role_ids: roleIds },
          Intent.GUILD_INVITES,
        );
        return json;
      },
    );

    app.get(
      '/channels/:channelId/invites',
      { config: auth, schema: { params: pathParams('channelId') } },
      async (request) => {
        const { guild, channel } = guilds.channel(request.params.channelId);
        guilds.requireChannelPermissions(guild, channel, callerOf(request).user.id, Permission.MANAGE_CHANNELS);
        return store.listChannelInvites(channel.id).map((invite) => inviteJson(invite, true));
      },
    );

    // Get Invite is published without required authentication (security `{}` or a bot token): an invite is meant to
    // be shared, so reading one needs no credential.
    app.get(
      '/invites/:code',
      { schema: { params: pathParams('code'), querystring: z.object({ with_counts: queryBoolean.default(false) }) } },
      async (request) => {
        const invite = findInvite(request.params.code);
        const json = inviteJson(invite, false);
        if (!request.query.with_counts) return json;
        return {
          ...json,
          approximate_member_count: ctx.store.guilds.countMembers(invite.guildId),
          approximate_presence_count: 0,
        };
      },
    );

    // Delete Invite: MANAGE_CHANNELS on the invite's channel, or MANAGE_GUILD for any invite of the guild; answers the
    // deleted invite and fires INVITE_DELETE (intent GUILD_INVITES) with audit entry 42.
    app.delete('/invites/:code', { config: auth, schema: { params: pathParams('code') } }, async (request) => {
      const caller = callerOf(request);
      const invite = findInvite(request.params.code);
      const { guild, channel } = guilds.channel(invite.channelId);
      const member = guilds.requireMember(guild, caller.user.id);
      const inChannel = guilds.channelPermissions(guild, channel, member);
      if (
        !has(inChannel, Permission.MANAGE_CHANNELS) &&
        !has(guilds.guildPermissions(guild, member), Permission.MANAGE_GUILD)
      ) {
        throw GuildErrors.missingPermissions();
      }
      const json = inviteJson(invite, true);
      ctx.store.transaction(() => {
        store.deleteInvite(invite.code);
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: invite.code,
          actionType: AuditAction.INVITE_DELETE,
          changes: null,
          options: null,
          reason: auditReason(request),
        });
      });
      guilds.publish(
        guild.id,
        'INVITE_DELETE',
        { channel_id: channel.id, guild_id: guild.id, code: invite.code },
        Intent.GUILD_INVITES,
      );
      return json;
    });

    app.get(
      '/invites/:code/target-users',
      { config: auth, schema: { params: pathParams('code') } },
      async (request, reply) => {
        const invite = findInvite(request.params.code);
        requireTargetAccess(callerOf(request), invite, true);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .send(targetUsersCsv(store.targetUsers(invite.code)));
      },
    );

    app.put(
      '/invites/:code/target-users',
      { config: { ...auth, bodyKinds: ['multipart'] }, schema: { params: pathParams('code'), body: z.object({}) } },
      async (request, reply) => {
        const invite = findInvite(request.params.code);
        requireTargetAccess(callerOf(request), invite, false);
        const file = targetFile(request.files);
        if (!file)
          throw invalidFormBody(
            addFieldError({}, ['target_users_file'], { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }),
          );
        const userIds = parseFile(file);
        ctx.store.transaction(() => applyTargets(invite, userIds));
        return reply.code(204).send();
      },
    );

    app.get(
      '/invites/:code/target-users/job-status',
      { config: auth, schema: { params: pathParams('code') } },
      async (request) => {
        const invite = findInvite(request.params.code);
        requireTargetAccess(callerOf(request), invite, true);
        const job = invite.job;
        if (!job)
          return {
            status: 0,
            total_users: 0,
            processed_users: 0,
            created_at: null,
            completed_at: null,
            error_message: null,
          };
        return {
          status: job.status,
          total_users: job.total,
          processed_users: job.processed,
          created_at: new Date(job.createdAt).toISOString(),
          completed_at: job.completedAt === null ? null : new Date(job.completedAt).toISOString(),
          error_message: job.error,
        };
      },
    );
  };
