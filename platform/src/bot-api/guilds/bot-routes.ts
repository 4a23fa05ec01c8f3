/**
 * Guilds, roles, members and the audit log for bots (PROTOCOL.md §14.5). Every route needs the caller in the guild;
 * permission rules go through the one engine (permissions.ts).
 */
import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { auditReason } from '../../http/audit-reason.js';
import { fieldError } from '../../http/errors.js';
import { queryBoolean, snowflakeSchema } from '../../http/validation.js';
import type { MemberRecord, RoleRecord } from '../../store/bot-types.js';
import { knownUserJson } from '../../users/serialize.js';
import { guildJson, memberJson, privateMemberJson, roleJson } from './bot-serialize.js';
import type { VoiceChannelState } from './voice-channel-state.js';
import { AuditAction } from './audit.js';
import { GuildErrors } from './errors.js';
import { bits, has, Permission } from './permissions.js';
import { Intent, type GuildService } from './service.js';

const MAX_ROLES = 250;

/** Guild member flag BYPASSES_VERIFICATION: the only one a bot may change. */
const BYPASSES_VERIFICATION = 1 << 2;

const permissionString = z.string().regex(/^\d{1,16}$/, { message: 'Value is not a permission bit set.' });
const color = z.number().int().min(0).max(0xffffff);
const colorsSchema = z.object({
  primary_color: color,
  secondary_color: color.nullable().optional(),
  tertiary_color: color.nullable().optional(),
});
const roleBody = z.object({
  name: z.string().min(1).max(100).optional(),
  permissions: permissionString.optional(),
  color: color.optional(),
  colors: colorsSchema.optional(),
  hoist: z.boolean().optional(),
  mentionable: z.boolean().optional(),
  unicode_emoji: z.string().max(32).nullable().optional(),
  icon: z.string().max(256).nullable().optional(),
});

const listMembersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(1),
  after: snowflakeSchema.optional(),
});
const searchMembersQuery = z.object({
  query: z.string().max(100),
  limit: z.coerce.number().int().min(1).max(1000).default(1),
});
const modifyCurrentMember = z.object({
  nick: z.string().max(32).nullable().optional(),
  avatar: z.string().max(2_000_000).nullable().optional(),
  banner: z.string().max(2_000_000).nullable().optional(),
  bio: z.string().max(190).nullable().optional(),
});
const modifyMember = z.object({
  nick: z.string().max(32).nullable().optional(),
  roles: z.array(snowflakeSchema).max(250).optional(),
  flags: z.number().int().min(0).optional(),
  communication_disabled_until: z.iso.datetime({ offset: true }).nullable().optional(),
});
const auditQuery = z.object({
  user_id: snowflakeSchema.optional(),
  action_type: z.coerce.number().int().min(1).max(255).optional(),
  before: snowflakeSchema.optional(),
  after: snowflakeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const any = { auth: { kind: 'any', scope: 'guilds' } } as const;
const bot = { auth: { kind: 'bot' } } as const;

/** A stored image reference: data URIs become a content hash (there is no CDN); null clears. */
function imageHash(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (!value.startsWith('data:')) return value.slice(0, 64);
  return Buffer.from(value).toString('base64url').slice(-32);
}

export const guildBotRoutes =
  (ctx: PlatformKernel, guilds: GuildService, voice: VoiceChannelState): ApiArea =>
  (app) => {
    const store = ctx.store.botGuilds;
    const memberUpdated = (member: MemberRecord) =>
      guilds.publishMemberUpdate(member.guildId, member.userId, {
        guild_id: member.guildId,
        ...memberJson(ctx, member),
      });

    app.get(
      '/guilds/:guildId',
      {
        config: any,
        schema: { params: pathParams('guildId'), querystring: z.object({ with_counts: queryBoolean.default(false) }) },
      },
      async (request) => {
        const guild = guilds.guild(request.params.guildId);
        guilds.requireMember(guild, callerOf(request).user.id);
        return guildJson(
          guild,
          guilds.roles(guild),
          request.query.with_counts ? { members: ctx.store.guilds.countMembers(guild.id) } : undefined,
        );
      },
    );

    // ── roles ──
    app.get('/guilds/:guildId/roles', { config: bot, schema: { params: pathParams('guildId') } }, async (request) => {
      const guild = guilds.guild(request.params.guildId);
      guilds.requireMember(guild, callerOf(request).user.id);
      return guilds.roles(guild).map(roleJson);
    });

    // Registered before /roles/:roleId; the router prefers the static segment anyway.
    app.get(
      '/guilds/:guildId/roles/member-counts',
      { config: bot, schema: { params: pathParams('guildId') } },
      async (request) => {
        const guild = guilds.guild(request.params.guildId);
        guilds.requireMember(guild, callerOf(request).user.id);
        const counts: Record<string, number> = {};
        for (const role of guilds.roles(guild)) if (role.id !== guild.id) counts[role.id] = 0;
        for (const member of store.listMembers(guild.id, null, Number.MAX_SAFE_INTEGER)) {
          for (const id of member.roles) if (id in counts) counts[id] = (counts[id] ?? 0) + 1;
        }
        return counts;
      },
    );

    app.get(
      '/guilds/:guildId/roles/:roleId',
      { config: bot, schema: { params: pathParams('guildId', 'roleId') } },
      async (request) => {
        const guild = guilds.guild(request.params.guildId);
        guilds.requireMember(guild, callerOf(request).user.id);
        const role = guilds.roles(guild).find((r) => r.id === request.params.roleId);
        if (!role) throw GuildErrors.unknownRole();
        return roleJson(role);
      },
    );

    app.post(
      '/guilds/:guildId/roles',
      { config: bot, schema: { params: pathParams('guildId'), body: roleBody } },
      async (request) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const member = guilds.requireGuildPermissions(guild, caller.user.id, Permission.MANAGE_ROLES);
        const body = request.body;
        if (
          body.colors &&
          !guild.features.includes('ENHANCED_ROLE_COLORS') &&
          (body.colors.secondary_color != null || body.colors.tertiary_color != null)
        ) {
          throw fieldError(
            ['colors'],
            'BASE_TYPE_INVALID',
            'Gradient and holographic role colors need the ENHANCED_ROLE_COLORS guild feature.',
          );
        }
        // A role may grant only permissions its creator holds (the rule every permission write follows).
        if (body.permissions !== undefined)
          guilds.requireMayChangeBits(guilds.guildPermissions(guild, member), 0n, bits(body.permissions));
        const existing = guilds.roles(guild);
        if (existing.length - 1 >= MAX_ROLES) throw GuildErrors.tooManyRoles();
        const role: RoleRecord = {
          id: ctx.ids.next(),
          guildId: guild.id,
          name: body.name ?? 'new role',
          permissions: body.permissions ?? existing[0]!.permissions,
          position: 1,
          colors: {
            primary_color: body.colors?.primary_color ?? body.color ?? 0,
            secondary_color: body.colors?.secondary_color ?? null,
            tertiary_color: body.colors?.tertiary_color ?? null,
          },
          hoist: body.hoist ?? false,
          mentionable: body.mentionable ?? false,
          icon: body.icon ?? null,
          unicodeEmoji: body.unicode_emoji ?? null,
          flags: 0,
        };
        ctx.store.transaction(() => {
          // New roles go to position 1, above @everyone; the others move up.
          for (const other of existing.slice(1)) store.upsertRole({ ...other, position: other.position + 1 });
          store.upsertRole(role);
          guilds.audit({
            guildId: guild.id,
            userId: caller.user.id,
            targetId: role.id,
            actionType: AuditAction.ROLE_CREATE,
            changes: null,
            options: null,
            reason: auditReason(request),
          });
        });
        guilds.publish(guild.id, 'GUILD_ROLE_CREATE', { guild_id: guild.id, role: roleJson(role) }, Intent.GUILDS);
        return roleJson(role);
      },
    );

    app.patch(
      '/guilds/:guildId/roles/:roleId',
      { config: bot, schema: { params: pathParams('guildId', 'roleId'), body: roleBody } },
      async (request) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const member = guilds.requireGuildPermissions(guild, caller.user.id, Permission.MANAGE_ROLES);
        const current = guilds.roles(guild).find((r) => r.id === request.params.roleId);
        if (!current) throw GuildErrors.unknownRole();
        // Roles at or above the caller's highest role are out of reach; @everyone is below everyone's.
        if (current.id !== guild.id && current.position >= guilds.highestPosition(guild, member))
          throw GuildErrors.missingPermissions();
        const body = request.body;
        // …and on any role, @everyone included, it changes only permissions it holds (a MANAGE_ROLES member could
        // otherwise make itself, or everyone, administrator).
        if (body.permissions !== undefined)
          guilds.requireMayChangeBits(
            guilds.guildPermissions(guild, member),
            bits(current.permissions),
            bits(body.permissions),
          );
        if (
          body.colors &&
          !guild.features.includes('ENHANCED_ROLE_COLORS') &&
          (body.colors.secondary_color != null || body.colors.tertiary_color != null)
        ) {
          throw fieldError(
            ['colors'],
            'BASE_TYPE_INVALID',
            'Gradient and holographic role colors need the ENHANCED_ROLE_COLORS guild feature.',
          );
        }
        const role: RoleRecord = {
          ...current,
          ...(body.name !== undefined && { name: body.name }),
          ...(body.permissions !== undefined && { permissions: body.permissions }),
          ...(body.hoist !== undefined && { hoist: body.hoist }),
          ...(body.mentionable !== undefined && { mentionable: body.mentionable }),
          ...(body.icon !== undefined && { icon: body.icon }),
          ...(body.unicode_emoji !== undefined && { unicodeEmoji: body.unicode_emoji }),
          colors: body.colors
            ? {
                primary_color: body.colors.primary_color,
                secondary_color: body.colors.secondary_color ?? null,
                tertiary_color: body.colors.tertiary_color ?? null,
              }
            : body.color !== undefined
              ? { ...current.colors, primary_color: body.color }
              : current.colors,
        };
        store.upsertRole(role);
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: role.id,
          actionType: AuditAction.ROLE_UPDATE,
          changes: null,
          options: null,
          reason: auditReason(request),
        });
        guilds.publish(guild.id, 'GUILD_ROLE_UPDATE', { guild_id: guild.id, role: roleJson(role) }, Intent.GUILDS);
        return roleJson(role);
      },
    );

    app.delete(
      '/guilds/:guildId/roles/:roleId',
      { config: bot, schema: { params: pathParams('guildId', 'roleId') } },
      async (request, reply) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const member = guilds.requireGuildPermissions(guild, caller.user.id, Permission.MANAGE_ROLES);
        const role = guilds.roles(guild).find((r) => r.id === request.params.roleId);
        if (!role || role.id === guild.id) throw GuildErrors.unknownRole();
        if (role.position >= guilds.highestPosition(guild, member)) throw GuildErrors.missingPermissions();
        ctx.store.transaction(() => {
          store.deleteRole(guild.id, role.id);
          for (const holder of store.listMembers(guild.id, null, Number.MAX_SAFE_INTEGER)) {
            if (holder.roles.includes(role.id))
              store.upsertMember({ ...holder, roles: holder.roles.filter((id) => id !== role.id) });
          }
          guilds.audit({
            guildId: guild.id,
            userId: caller.user.id,
            targetId: role.id,
            actionType: AuditAction.ROLE_DELETE,
            changes: null,
            options: null,
            reason: auditReason(request),
          });
        });
        guilds.publish(guild.id, 'GUILD_ROLE_DELETE', { guild_id: guild.id, role_id: role.id }, Intent.GUILDS);
        return reply.code(204).send();
      },
    );

    // ── members ──
    /** Listing members needs the application's GUILD_MEMBERS flag (the intent's grant), like the published route. */
    const requireMembersIntentFlag = (flags: number) => {
      if ((flags & ((1 << 14) | (1 << 15))) === 0) throw GuildErrors.missingAccess();
    };

    app.get(
      '/guilds/:guildId/members',
      { config: bot, schema: { params: pathParams('guildId'), querystring: listMembersQuery } },
      async (request) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        guilds.requireMember(guild, caller.user.id);
        requireMembersIntentFlag(caller.app.flags);
        return store
          .listMembers(guild.id, request.query.after ?? null, request.query.limit)
          .map((member) => memberJson(ctx, member));
      },
    );

    app.get(
      '/guilds/:guildId/members/search',
      { config: bot, schema: { params: pathParams('guildId'), querystring: searchMembersQuery } },
      async (request) => {
        const guild = guilds.guild(request.params.guildId);
        guilds.requireMember(guild, callerOf(request).user.id);
        return store
          .searchMembers(guild.id, request.query.query, request.query.limit)
          .map((member) => memberJson(ctx, member));
      },
    );

    app.patch(
      '/guilds/:guildId/members/@me',
      { config: bot, schema: { params: pathParams('guildId'), body: modifyCurrentMember } },
      async (request) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const member = guilds.requireMember(guild, caller.user.id);
        const body = request.body;
        if (body.nick !== undefined && !has(guilds.guildPermissions(guild, member), Permission.CHANGE_NICKNAME))
          throw GuildErrors.missingPermissions();
        const updated: MemberRecord = {
          ...member,
          joinedAt: member.joinedAt || ctx.now(),
          ...(body.nick !== undefined && { nick: body.nick === '' ? null : body.nick }),
          ...(body.avatar !== undefined && { avatar: imageHash(body.avatar) ?? null }),
          ...(body.banner !== undefined && { banner: imageHash(body.banner) ?? null }),
          ...(body.bio !== undefined && { bio: body.bio }),
        };
        store.upsertMember(updated);
        memberUpdated(updated);
        return privateMemberJson(ctx, updated);
      },
    );

    app.get(
      '/guilds/:guildId/members/:userId',
      { config: bot, schema: { params: pathParams('guildId', 'userId') } },
      async (request) => {
        const guild = guilds.guild(request.params.guildId);
        guilds.requireMember(guild, callerOf(request).user.id);
        const member = guilds.member(guild.id, request.params.userId);
        if (!member) throw GuildErrors.unknownMember();
        return memberJson(ctx, member);
      },
    );

    app.patch(
      '/guilds/:guildId/members/:userId',
      { config: bot, schema: { params: pathParams('guildId', 'userId'), body: modifyMember } },
      async (request) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const actor = guilds.requireMember(guild, caller.user.id);
        const target = guilds.member(guild.id, request.params.userId);
        if (!target) throw GuildErrors.unknownMember();
        const body = request.body;
        const permissions = guilds.guildPermissions(guild, actor);
        if (body.nick !== undefined && !has(permissions, Permission.MANAGE_NICKNAMES))
          throw GuildErrors.missingPermissions();
        if (body.roles !== undefined) {
          if (!has(permissions, Permission.MANAGE_ROLES)) throw GuildErrors.missingPermissions();
          const known = new Map(guilds.roles(guild).map((role) => [role.id, role]));
          body.roles.forEach((id, index) => {
            if (!known.has(id) || id === guild.id) throw fieldError(['roles', index], 'UNKNOWN_ROLE', 'Unknown role.');
          });
          // Taking a role away needs the hierarchy only; adding one is a grant of its bits as well.
          const highest = guilds.highestPosition(guild, actor);
          if (target.roles.some((id) => !body.roles!.includes(id) && (known.get(id)?.position ?? 0) >= highest))
            throw GuildErrors.missingPermissions();
          guilds.requireMayGrant(
            guild,
            actor,
            body.roles.filter((id) => !target.roles.includes(id)).map((id) => known.get(id)!),
          );
        }
        if (body.flags !== undefined) {
          // Published rule: MANAGE_GUILD, or MANAGE_ROLES, or MODERATE_MEMBERS with KICK_MEMBERS and BAN_MEMBERS.
          const allowed =
            has(permissions, Permission.MANAGE_GUILD) ||
            has(permissions, Permission.MANAGE_ROLES) ||
            has(permissions, Permission.MODERATE_MEMBERS, Permission.KICK_MEMBERS, Permission.BAN_MEMBERS);
          if (!allowed) throw GuildErrors.missingPermissions();
          if ((body.flags & ~BYPASSES_VERIFICATION) !== (target.flags & ~BYPASSES_VERIFICATION)) {
            throw fieldError(['flags'], 'BASE_TYPE_INVALID', 'Only BYPASSES_VERIFICATION (1 << 2) can be changed.');
          }
        }
        if (body.communication_disabled_until !== undefined && !has(permissions, Permission.MODERATE_MEMBERS))
          throw GuildErrors.missingPermissions();
        const updated: MemberRecord = {
          ...target,
          joinedAt: target.joinedAt || ctx.now(),
          ...(body.nick !== undefined && { nick: body.nick === '' ? null : body.nick }),
          ...(body.roles !== undefined && { roles: [...new Set(body.roles)] }),
          ...(body.flags !== undefined && { flags: body.flags }),
          ...(body.communication_disabled_until !== undefined && {
            communicationDisabledUntil:
              body.communication_disabled_until === null ? null : Date.parse(body.communication_disabled_until),
          }),
        };
        store.upsertMember(updated);
        const action = body.roles !== undefined ? AuditAction.MEMBER_ROLE_UPDATE : AuditAction.MEMBER_UPDATE;
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: target.userId,
          actionType: action,
          changes: null,
          options: null,
          reason: auditReason(request),
        });
        memberUpdated(updated);
        return memberJson(ctx, updated);
      },
    );

    for (const method of ['PUT', 'DELETE'] as const) {
      app.route({
        method,
        url: '/guilds/:guildId/members/:userId/roles/:roleId',
        config: bot,
        schema: { params: pathParams('guildId', 'userId', 'roleId') },
        handler: async (request, reply) => {
          const caller = callerOf(request);
          const guild = guilds.guild(request.params.guildId);
          const actor = guilds.requireGuildPermissions(guild, caller.user.id, Permission.MANAGE_ROLES);
          const target = guilds.member(guild.id, request.params.userId);
          if (!target) throw GuildErrors.unknownMember();
          const role = guilds.roles(guild).find((r) => r.id === request.params.roleId && r.id !== guild.id);
          if (!role) throw GuildErrors.unknownRole();
          if (method === 'PUT') guilds.requireMayGrant(guild, actor, [role]);
          else if (role.position >= guilds.highestPosition(guild, actor)) throw GuildErrors.missingPermissions();
          const roles =
            method === 'PUT' ? [...new Set([...target.roles, role.id])] : target.roles.filter((id) => id !== role.id);
          const updated = { ...target, joinedAt: target.joinedAt || ctx.now(), roles };
          store.upsertMember(updated);
          guilds.audit({
            guildId: guild.id,
            userId: caller.user.id,
            targetId: target.userId,
            actionType: AuditAction.MEMBER_ROLE_UPDATE,
            changes: null,
            options: null,
            reason: auditReason(request),
          });
          memberUpdated(updated);
          return reply.code(204).send();
        },
      });
    }

    app.delete(
      '/guilds/:guildId/members/:userId',
      { config: bot, schema: { params: pathParams('guildId', 'userId') } },
      async (request, reply) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const actor = guilds.requireGuildPermissions(guild, caller.user.id, Permission.KICK_MEMBERS);
        const target = guilds.member(guild.id, request.params.userId);
        if (!target) throw GuildErrors.unknownMember();
        if (
          guild.ownerId === target.userId ||
          guilds.highestPosition(guild, target) >= guilds.highestPosition(guild, actor)
        )
          throw GuildErrors.missingPermissions();
        store.removeMember(guild.id, target.userId);
        voice.disconnect({ guildId: guild.id, userId: target.userId });
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: target.userId,
          actionType: AuditAction.MEMBER_KICK,
          changes: null,
          options: null,
          reason: auditReason(request),
        });
        guilds.publish(
          guild.id,
          'GUILD_MEMBER_REMOVE',
          { guild_id: guild.id, user: memberJson(ctx, target).user },
          Intent.GUILD_MEMBERS,
        );
        return reply.code(204).send();
      },
    );

    // ── prune: members without roles (unless listed in include_roles) inactive for `days` ──
    // Needs both MANAGE_GUILD and KICK_MEMBERS. Activity is not tracked here: a member counts as inactive when it
    // joined more than `days` ago (OURS).
    const pruneQuery = z.object({
      days: z.coerce.number().int().min(1).max(30).default(7),
      include_roles: z.string().max(5000).optional(),
    });
    const pruneBody = z.object({
      days: z.number().int().min(1).max(30).default(7),
      compute_prune_count: z.boolean().default(true),
      include_roles: z.array(snowflakeSchema).max(250).default([]),
    });
    const prunable = (guildId: string, ownerId: string | null, days: number, includeRoles: string[]) => {
      const cutoff = ctx.now() - days * 86_400_000;
      return store
        .listMembers(guildId, null, Number.MAX_SAFE_INTEGER)
        .filter(
          (m) => m.userId !== ownerId && (m.joinedAt || 0) < cutoff && m.roles.every((id) => includeRoles.includes(id)),
        );
    };

    app.get(
      '/guilds/:guildId/prune',
      { config: bot, schema: { params: pathParams('guildId'), querystring: pruneQuery } },
      async (request) => {
        const guild = guilds.guild(request.params.guildId);
        guilds.requireGuildPermissions(
          guild,
          callerOf(request).user.id,
          Permission.MANAGE_GUILD,
          Permission.KICK_MEMBERS,
        );
        const include = request.query.include_roles ? request.query.include_roles.split(',').filter(Boolean) : [];
        return { pruned: prunable(guild.id, guild.ownerId, request.query.days, include).length };
      },
    );

    app.post(
      '/guilds/:guildId/prune',
      { config: bot, schema: { params: pathParams('guildId'), body: pruneBody } },
      async (request) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        guilds.requireGuildPermissions(guild, caller.user.id, Permission.MANAGE_GUILD, Permission.KICK_MEMBERS);
        const victims = prunable(guild.id, guild.ownerId, request.body.days, request.body.include_roles).filter(
          (m) => m.userId !== caller.user.id,
        );
        ctx.store.transaction(() => {
          for (const member of victims) store.removeMember(guild.id, member.userId);
          guilds.audit({
            guildId: guild.id,
            userId: caller.user.id,
            targetId: null,
            actionType: AuditAction.MEMBER_PRUNE,
            changes: null,
            options: { delete_member_days: String(request.body.days), members_removed: String(victims.length) },
            reason: auditReason(request),
          });
        });
        for (const member of victims)
          guilds.publish(
            guild.id,
            'GUILD_MEMBER_REMOVE',
            { guild_id: guild.id, user: knownUserJson(ctx, member.userId) },
            Intent.GUILD_MEMBERS,
          );
        for (const member of victims) voice.disconnect({ guildId: guild.id, userId: member.userId });
        return { pruned: request.body.compute_prune_count ? victims.length : null };
      },
    );

    // ── audit log ──
    app.get(
      '/guilds/:guildId/audit-logs',
      { config: bot, schema: { params: pathParams('guildId'), querystring: auditQuery } },
      async (request) => {
        const guild = guilds.guild(request.params.guildId);
        guilds.requireGuildPermissions(guild, callerOf(request).user.id, Permission.VIEW_AUDIT_LOG);
        const q = request.query;
        const entries = store.listAudit(guild.id, {
          limit: q.limit,
          ...(q.user_id !== undefined && { userId: q.user_id }),
          ...(q.action_type !== undefined && { actionType: q.action_type }),
          ...(q.before !== undefined && { before: q.before }),
          ...(q.after !== undefined && { after: q.after }),
        });
        const userIds = [...new Set(entries.flatMap((e) => [e.userId, ...(e.targetId ? [e.targetId] : [])]))];
        // The rules the entries refer to (rule entries 140–142 target the rule) that still exist.
        const ruleIds = new Set(entries.map((e) => e.targetId));
        const rules = store
          .listAutoModRules(guild.id)
          .filter((r) => ruleIds.has(r.id))
          .map((r) => r.rule);
        return {
          audit_log_entries: entries.map((e) => ({
            id: e.id,
            action_type: e.actionType,
            user_id: e.userId,
            target_id: e.targetId,
            ...(e.changes && { changes: e.changes }),
            ...(e.options && { options: e.options }),
            ...(e.reason !== null && { reason: e.reason }),
          })),
          users: userIds.filter((id) => ctx.store.users.get(id)).map((id) => knownUserJson(ctx, id)),
          integrations: [],
          webhooks: [],
          threads: [],
          application_commands: [],
          auto_moderation_rules: rules,
          guild_scheduled_events: [],
        };
      },
    );
  };
