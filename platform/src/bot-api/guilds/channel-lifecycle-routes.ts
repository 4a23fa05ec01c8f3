/**
 * Create Guild Channel and Delete Channel (PROTOCOL.md §14.4 "Channels over HTTP"): MANAGE_CHANNELS, plus
 * MANAGE_ROLES for overwrites given at creation; CHANNEL_CREATE / CHANNEL_DELETE (intent GUILDS) and audit 10 / 12.
 */
import type { PlatformKernel } from '../../kernel.js';
import { z } from 'zod';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { auditReason } from '../../http/audit-reason.js';

import type { ChannelRecord } from '../../store/types.js';
import type { ChannelSettingsRecord } from '../../store/bot-types.js';
import { AuditAction } from './audit.js';
import { fullChannelJson } from './bot-serialize.js';
import {
  ChannelType,
  channelFieldsSchema,
  checkedOverwrites,
  MAX_GUILD_CHANNELS,
  requireFieldsFitType,
  requireParent,
} from './channel-fields.js';
import { GuildErrors } from './errors.js';
import { has, Permission } from './permissions.js';
import { Intent, type GuildService } from './service.js';
import type { VoiceChannelState } from './voice-channel-state.js';
import { publishedError } from '../../http/published-errors.js';

const createSchema = z
  .object({
    ...channelFieldsSchema,
    // Only the channel types this platform models (text, voice, category); others are refused, not mistyped.
    type: z.literal([ChannelType.GUILD_TEXT, ChannelType.GUILD_VOICE, ChannelType.GUILD_CATEGORY]).nullish(),
  })
  .strict();

const tooManyChannels = () => publishedError('MAX_CHANNELS', { limit: MAX_GUILD_CHANNELS });

export const channelLifecycleRoutes =
  (ctx: PlatformKernel, guilds: GuildService, voice: VoiceChannelState): ApiArea =>
  (app) => {
    app.post(
      '/guilds/:guildId/channels',
      { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('guildId'), body: createSchema } },
      async (request, reply) => {
        const caller = callerOf(request);
        const guild = guilds.guild(request.params.guildId);
        const member = guilds.requireGuildPermissions(guild, caller.user.id, Permission.MANAGE_CHANNELS);
        const body = request.body;
        const type = body.type ?? ChannelType.GUILD_TEXT;
        requireFieldsFitType(type, body);
        requireParent(guilds, guild, body.parent_id);
        const mine = guilds.guildPermissions(guild, member);
        const given = body.permission_overwrites ?? [];
        if (given.length > 0 && !has(mine, Permission.MANAGE_ROLES)) throw GuildErrors.missingPermissions();
        const overwrites = checkedOverwrites(guilds, guild, mine, [], given);
        const existing = ctx.store.guilds.listChannels(guild.id);
        if (existing.length >= MAX_GUILD_CHANNELS) throw tooManyChannels();

        const channel: ChannelRecord = {
          id: ctx.ids.next(),
          guildId: guild.id,
          name: body.name,
          type,
          // Without a position the channel goes last.
          position: body.position ?? existing.reduce((last, c) => Math.max(last, c.position + 1), 0),
          parentId: body.parent_id ?? null,
        };
        const settings: ChannelSettingsRecord = {
          channelId: channel.id,
          topic: body.topic ?? null,
          nsfw: body.nsfw ?? false,
          rateLimitPerUser: body.rate_limit_per_user ?? 0,
          bitrate: body.bitrate ?? 64_000,
          userLimit: body.user_limit ?? 0,
          overwrites,
        };
        ctx.store.guilds.upsertChannel(channel);
        ctx.store.botGuilds.setChannelSettings(settings);
        const json = fullChannelJson(channel, settings);
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: channel.id,
          actionType: AuditAction.CHANNEL_CREATE,
          changes: Object.entries(json)
            .filter(([key]) =>
              [
                'name',
                'type',
                'position',
                'parent_id',
                'nsfw',
                'topic',
                'rate_limit_per_user',
                'bitrate',
                'user_limit',
                'permission_overwrites',
              ].includes(key),
            )
            .map(([key, value]) => ({ key, new_value: value })),
          options: null,
          reason: auditReason(request),
        });
        guilds.publish(guild.id, 'CHANNEL_CREATE', json, Intent.GUILDS);
        return reply.code(201).send(json);
      },
    );

    app.delete(
      '/channels/:channelId',
      { config: { auth: { kind: 'bot' } }, schema: { params: pathParams('channelId') } },
      async (request) => {
        const caller = callerOf(request);
        const { guild, channel } = guilds.channel(request.params.channelId);
        guilds.requireChannelPermissions(
          guild,
          channel,
          caller.user.id,
          Permission.VIEW_CHANNEL,
          Permission.MANAGE_CHANNELS,
        );
        const json = fullChannelJson(channel, guilds.settings(channel.id));
        ctx.store.botGuilds.forgetChannel(channel.id);
        ctx.store.guilds.deleteChannel(channel.id);
        // A deleted voice channel's call ends for everyone in it.
        voice.disconnect({ guildId: guild.id, channelId: channel.id });
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: channel.id,
          actionType: AuditAction.CHANNEL_DELETE,
          changes: [
            { key: 'name', old_value: channel.name },
            { key: 'type', old_value: channel.type },
          ],
          options: null,
          reason: auditReason(request),
        });
        guilds.publish(guild.id, 'CHANNEL_DELETE', json, Intent.GUILDS);
        return json;
      },
    );
  };
