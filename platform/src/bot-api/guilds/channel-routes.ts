/**
 * Editing a guild channel over HTTP (PROTOCOL.md §14.4 "Channels over HTTP"): Modify Channel for the fields this
 * platform keeps (channel-fields.ts), Edit / Delete Channel Permission (the overwrites the one permission engine
 * reads). Each change sends CHANNEL_UPDATE (intent GUILDS) and writes its audit entry.
 */
import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { auditReason } from '../../http/audit-reason.js';

import type { ChannelRecord, GuildRecord } from '../../store/types.js';
import type { ChannelSettingsRecord } from '../../store/bot-types.js';
import { AuditAction } from './audit.js';
import { fullChannelJson } from './bot-serialize.js';
import { GuildErrors } from './errors.js';
import { has, Permission } from './permissions.js';
import {
  channelFieldsSchema,
  checkedOverwrites,
  overwriteBodySchema,
  requireFieldsFitType,
  requireMayChangeOverwrite,
  requireParent,
  sameOverwrites,
} from './channel-fields.js';
import { Intent, type GuildService } from './service.js';
import { publishedError } from '../../http/published-errors.js';

const modifySchema = z
  .object({ ...channelFieldsSchema, name: channelFieldsSchema.name.optional() })
  // Fields this platform does not keep (rtc_region, video_quality_mode, forum fields, …) are refused by name.
  .strict();
const overwriteSchema = overwriteBodySchema.omit({ id: true });

const unknownOverwrite = () => publishedError('UNKNOWN_OVERWRITE');

export const channelEditRoutes =
  (ctx: PlatformKernel, guilds: GuildService): ApiArea =>
  (app) => {
    const store = ctx.store.botGuilds;

    const updated = (guild: GuildRecord, channel: ChannelRecord, settings: ChannelSettingsRecord) => {
      store.setChannelSettings(settings);
      const json = fullChannelJson(channel, settings);
      guilds.publish(guild.id, 'CHANNEL_UPDATE', { ...json, guild_id: guild.id }, Intent.GUILDS);
      return json;
    };

    app.patch(
      '/channels/:channelId',
      { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('channelId'), body: modifySchema } },
      async (request) => {
        const caller = callerOf(request);
        const { guild, channel } = guilds.channel(request.params.channelId);
        const mine = guilds.requireChannelPermissions(
          guild,
          channel,
          caller.user.id,
          Permission.VIEW_CHANNEL,
          Permission.MANAGE_CHANNELS,
        );
        const body = request.body;
        requireFieldsFitType(channel.type, body);
        requireParent(guilds, guild, body.parent_id, channel.id);
        const before = guilds.settings(channel.id);
        let overwrites = before.overwrites;
        if (body.permission_overwrites !== undefined && body.permission_overwrites !== null) {
          // Overwrites are permissions: editing them takes MANAGE_ROLES in the channel, as Edit Channel Permission
          // does.
          if (!has(mine, Permission.MANAGE_ROLES)) throw GuildErrors.missingPermissions();
          overwrites = checkedOverwrites(guilds, guild, mine, before.overwrites, body.permission_overwrites);
          // The list replaces the stored one: an overwrite left out is deleted, which changes its bits too.
          for (const gone of before.overwrites.filter((o) => !overwrites.some((n) => n.id === o.id)))
            requireMayChangeOverwrite(guilds, mine, gone, undefined);
        }
        const after: ChannelSettingsRecord = {
          ...before,
          ...(body.topic !== undefined && { topic: body.topic }),
          ...(body.nsfw !== undefined && body.nsfw !== null && { nsfw: body.nsfw }),
          ...(body.rate_limit_per_user !== undefined && { rateLimitPerUser: body.rate_limit_per_user ?? 0 }),
          ...(body.bitrate !== undefined && { bitrate: body.bitrate ?? 64_000 }),
          ...(body.user_limit !== undefined && { userLimit: body.user_limit ?? 0 }),
          overwrites,
        };
        const moved: ChannelRecord = {
          ...channel,
          ...(body.name !== undefined && { name: body.name }),
          ...(body.position !== undefined && body.position !== null && { position: body.position }),
          ...(body.parent_id !== undefined && { parentId: body.parent_id }),
        };
        const changes: Array<{ key: string; old_value?: unknown; new_value?: unknown }> = [
          ['name', channel.name, moved.name],
          ['position', channel.position, moved.position],
          ['parent_id', channel.parentId, moved.parentId],
          ['topic', before.topic, after.topic],
          ['nsfw', before.nsfw, after.nsfw],
          ['rate_limit_per_user', before.rateLimitPerUser, after.rateLimitPerUser],
          ['bitrate', before.bitrate, after.bitrate],
          ['user_limit', before.userLimit, after.userLimit],
        ]
          .filter(([, old, now]) => old !== now)
          .map(([key, old, now]) => ({ key: key as string, old_value: old, new_value: now }));
        if (!sameOverwrites(before.overwrites, after.overwrites)) {
          changes.push({
            key: 'permission_overwrites',
            old_value: fullChannelJson(channel, before).permission_overwrites,
            new_value: fullChannelJson(channel, after).permission_overwrites,
          });
        }
        if (changes.length > 0) {
          guilds.audit({
            guildId: guild.id,
            userId: caller.user.id,
            targetId: channel.id,
            actionType: AuditAction.CHANNEL_UPDATE,
            changes,
            options: null,
            reason: auditReason(request),
          });
        }
        ctx.store.guilds.upsertChannel(moved);
        return updated(guild, moved, after);
      },
    );

    app.put(
      '/channels/:channelId/permissions/:overwriteId',
      {
        config: { auth: { kind: 'bot' } },
        schema: { params: pathParams('channelId', 'overwriteId'), body: overwriteSchema },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { guild, channel } = guilds.channel(request.params.channelId);
        const mine = guilds.requireChannelPermissions(
          guild,
          channel,
          caller.user.id,
          Permission.VIEW_CHANNEL,
          Permission.MANAGE_ROLES,
        );
        const target = request.params.overwriteId;
        const before = guilds.settings(channel.id);
        const overwrite = checkedOverwrites(
          guilds,
          guild,
          mine,
          before.overwrites,
          [{ id: target, ...request.body }],
          () => [],
        )[0]!;
        const previous = before.overwrites.find((o) => o.id === target);
        const overwrites = previous
          ? before.overwrites.map((o) => (o.id === target ? overwrite : o))
          : [...before.overwrites, overwrite];
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: channel.id,
          actionType: previous ? AuditAction.CHANNEL_OVERWRITE_UPDATE : AuditAction.CHANNEL_OVERWRITE_CREATE,
          changes: [
            { key: 'allow', ...(previous && { old_value: previous.allow }), new_value: overwrite.allow },
            { key: 'deny', ...(previous && { old_value: previous.deny }), new_value: overwrite.deny },
          ],
          options: { id: target, type: String(overwrite.type) },
          reason: auditReason(request),
        });
        updated(guild, channel, { ...before, overwrites });
        return reply.code(204).send();
      },
    );

    app.delete(
      '/channels/:channelId/permissions/:overwriteId',
      { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('channelId', 'overwriteId') } },
      async (request, reply) => {
        const caller = callerOf(request);
        const { guild, channel } = guilds.channel(request.params.channelId);
        const mine = guilds.requireChannelPermissions(
          guild,
          channel,
          caller.user.id,
          Permission.VIEW_CHANNEL,
          Permission.MANAGE_ROLES,
        );
        const before = guilds.settings(channel.id);
        const previous = before.overwrites.find((o) => o.id === request.params.overwriteId);
        if (!previous) throw unknownOverwrite();
        // Deleting a deny grants what it denied (and an allow takes away): a change of its bits like any other.
        requireMayChangeOverwrite(guilds, mine, previous, undefined);
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
      },
    );
  };
