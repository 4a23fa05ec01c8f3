/**
 * Editing a guild channel over HTTP (PROTOCOL.md §14.4 "Channel settings"): Modify Channel for the settings this
 * platform keeps (`topic`, `nsfw`, `rate_limit_per_user`), Edit / Delete Channel Permission (the overwrites the one
 * permission engine reads). Each change sends CHANNEL_UPDATE (intent GUILDS) and writes its audit entry.
 */
import { z } from 'zod';
import { callerOf, pathParams, type ApiArea } from '../http/api.js';
import { auditReason } from '../http/audit-reason.js';
import { ApiError, fieldError } from '../http/errors.js';
import type { ChannelRecord, GuildRecord } from '../store/types.js';
import type { ChannelSettingsRecord, PermissionOverwrite } from '../store/bot-types.js';
import { AuditAction } from './audit.js';
import { fullChannelJson } from './bot-serialize.js';
import { GuildErrors } from './errors.js';
import { ALL_BITS, has, Permission } from './permissions.js';
import { Intent, type GuildService } from './service.js';

/** The published limit of slowmode: six hours. */
export const MAX_RATE_LIMIT_PER_USER = 21_600;

const bits = z.string().regex(/^\d{1,20}$/, 'must be a permission bit set as a string of digits');
const modifySchema = z
  .object({
    topic: z.string().max(1024).nullish(),
    nsfw: z.boolean().nullish(),
    rate_limit_per_user: z.int().min(0).max(MAX_RATE_LIMIT_PER_USER).nullish(),
  })
  // Names, positions, parents and the rest are not editable here yet: refused by name rather than ignored.
  .strict();
const overwriteSchema = z.object({ type: z.literal([0, 1]), allow: bits.nullish(), deny: bits.nullish() });

const unknownOverwrite = () => new ApiError(404, 10009, 'Unknown Overwrite');

export const channelEditRoutes = (guilds: GuildService): ApiArea => (app, ctx) => {
  const store = ctx.store.botGuilds;

  const updated = (guild: GuildRecord, channel: ChannelRecord, settings: ChannelSettingsRecord) => {
    store.setChannelSettings(settings);
    const json = fullChannelJson(channel, settings);
    guilds.publish(guild.id, 'CHANNEL_UPDATE', { ...json, guild_id: guild.id }, Intent.GUILDS);
    return json;
  };

  app.patch('/channels/:channelId', { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('channelId'), body: modifySchema } }, async (request) => {
    const caller = callerOf(request);
    const { guild, channel } = guilds.channel(request.params.channelId);
    guilds.requireChannelPermissions(guild, channel, caller.user.id, Permission.VIEW_CHANNEL, Permission.MANAGE_CHANNELS);
    const before = guilds.settings(channel.id);
    const body = request.body;
    const after: ChannelSettingsRecord = {
      ...before,
      ...(body.topic !== undefined && { topic: body.topic }),
      ...(body.nsfw !== undefined && body.nsfw !== null && { nsfw: body.nsfw }),
      ...(body.rate_limit_per_user !== undefined && { rateLimitPerUser: body.rate_limit_per_user ?? 0 }),
    };
    if (channel.type !== 0 && (after.topic !== before.topic || after.rateLimitPerUser !== before.rateLimitPerUser)) {
      throw fieldError([after.topic !== before.topic ? 'topic' : 'rate_limit_per_user'], 'CHANNEL_TYPE_INVALID', 'Only text channels have a topic and a slowmode here.');
    }
    const changes = [
      ['topic', before.topic, after.topic],
      ['nsfw', before.nsfw, after.nsfw],
      ['rate_limit_per_user', before.rateLimitPerUser, after.rateLimitPerUser],
    ]
      .filter(([, old, now]) => old !== now)
      .map(([key, old, now]) => ({ key, old_value: old, new_value: now }));
    if (changes.length > 0) {
      guilds.audit({ guildId: guild.id, userId: caller.user.id, targetId: channel.id, actionType: AuditAction.CHANNEL_UPDATE, changes, options: null, reason: auditReason(request) });
    }
    return updated(guild, channel, after);
  });

  app.put(
    '/channels/:channelId/permissions/:overwriteId',
    { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('channelId', 'overwriteId'), body: overwriteSchema } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { guild, channel } = guilds.channel(request.params.channelId);
      const mine = guilds.requireChannelPermissions(guild, channel, caller.user.id, Permission.VIEW_CHANNEL, Permission.MANAGE_ROLES);
      const { type } = request.body;
      const allow = BigInt(request.body.allow ?? '0');
      const deny = BigInt(request.body.deny ?? '0');
      for (const [field, value] of [['allow', allow], ['deny', deny]] as const) {
        if ((value & ~ALL_BITS) !== 0n) throw fieldError([field], 'PERMISSIONS_INVALID', 'Unknown permission bits.');
      }
      // Nobody grants or takes away what they do not hold themselves (administrators hold everything).
      if (!has(mine, Permission.ADMINISTRATOR) && ((allow | deny) & ~mine) !== 0n) throw GuildErrors.missingPermissions();
      const target = request.params.overwriteId;
      const exists = type === 0 ? guilds.roles(guild).some((role) => role.id === target) : guilds.member(guild.id, target) !== undefined;
      if (!exists) throw type === 0 ? GuildErrors.unknownRole() : GuildErrors.unknownMember();

      const before = guilds.settings(channel.id);
      const previous = before.overwrites.find((o) => o.id === target);
      const overwrite: PermissionOverwrite = { id: target, type, allow: allow.toString(), deny: deny.toString() };
      const overwrites = previous ? before.overwrites.map((o) => (o.id === target ? overwrite : o)) : [...before.overwrites, overwrite];
      guilds.audit({
        guildId: guild.id,
        userId: caller.user.id,
        targetId: channel.id,
        actionType: previous ? AuditAction.CHANNEL_OVERWRITE_UPDATE : AuditAction.CHANNEL_OVERWRITE_CREATE,
        changes: [
          { key: 'allow', ...(previous && { old_value: previous.allow }), new_value: overwrite.allow },
          { key: 'deny', ...(previous && { old_value: previous.deny }), new_value: overwrite.deny },
        ],
        options: { id: target, type: String(type) },
        reason: auditReason(request),
      });
      updated(guild, channel, { ...before, overwrites });
      return reply.code(204).send();
    },
  );

  app.delete('/channels/:channelId/permissions/:overwriteId', { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('channelId', 'overwriteId') } }, async (request, reply) => {
    const caller = callerOf(request);
    const { guild, channel } = guilds.channel(request.params.channelId);
    guilds.requireChannelPermissions(guild, channel, caller.user.id, Permission.VIEW_CHANNEL, Permission.MANAGE_ROLES);
    const before = guilds.settings(channel.id);
    const previous = before.overwrites.find((o) => o.id === request.params.overwriteId);
    if (!previous) throw unknownOverwrite();
    guilds.audit({
      guildId: guild.id,
      userId: caller.user.id,
      targetId: channel.id,
      actionType: AuditAction.CHANNEL_OVERWRITE_DELETE,
      changes: [
        { key: 'allow', old_value: previous.allow },
        { key: 'deny', old_value: previous.deny },
      ],
      options: { id: previous.id, type: String(previous.type) },
      reason: auditReason(request),
    });
    updated(guild, channel, { ...before, overwrites: before.overwrites.filter((o) => o.id !== previous.id) });
    return reply.code(204).send();
  });
};
