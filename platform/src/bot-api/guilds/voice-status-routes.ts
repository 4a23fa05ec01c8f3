/**
 * `PUT /channels/{id}/voice-status` (PROTOCOL.md §14.6): a voice channel's status text (≤ 500 characters, null
 * clears). Needs SET_VOICE_CHANNEL_STATUS, plus MANAGE_CHANNELS when the caller is not connected to the channel's
 * call. Writes audit entries 192 / 193 and sends VOICE_CHANNEL_STATUS_UPDATE. The voice session start time is
 * driven by the call (PROTOCOL.md §13.8); the dev route sets a given value for tests.
 */
import { z } from 'zod';
import { callerOf, pathParams, type ApiArea } from '../../http/api.js';
import { auditReason } from '../../http/audit-reason.js';
import { AuditAction } from './audit.js';
import { GuildErrors } from './errors.js';
import { Permission } from './permissions.js';
import { Intent, type GuildService } from './service.js';
import type { VoiceChannelState } from './voice-channel-state.js';

const GUILD_VOICE = 2;

export const voiceStatusRoutes =
  (guilds: GuildService, voice: VoiceChannelState): ApiArea =>
  (app) => {
    app.put(
      '/channels/:channelId/voice-status',
      {
        config: { auth: { kind: 'bot' } },
        schema: { params: pathParams('channelId'), body: z.object({ status: z.string().max(500).nullable() }) },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { guild, channel } = guilds.channel(request.params.channelId);
        if (channel.type !== GUILD_VOICE) throw GuildErrors.wrongChannelType();
        // Published rule: MANAGE_CHANNELS too unless the caller is connected to the channel.
        const alsoNeeded = voice.connected(guild.id, channel.id, caller.user.id) ? [] : [Permission.MANAGE_CHANNELS];
        guilds.requireChannelPermissions(
          guild,
          channel,
          caller.user.id,
          Permission.SET_VOICE_CHANNEL_STATUS,
          ...alsoNeeded,
        );
        const status = request.body.status === '' ? null : request.body.status;
        voice.setStatus(channel.id, status);
        guilds.audit({
          guildId: guild.id,
          userId: caller.user.id,
          targetId: channel.id,
          actionType:
            status === null ? AuditAction.VOICE_CHANNEL_STATUS_DELETE : AuditAction.VOICE_CHANNEL_STATUS_CREATE,
          changes: null,
          options: status === null ? { channel_id: channel.id } : { channel_id: channel.id, status },
          reason: auditReason(request),
        });
        guilds.publish(
          guild.id,
          'VOICE_CHANNEL_STATUS_UPDATE',
          { id: channel.id, guild_id: guild.id, status },
          Intent.GUILDS,
        );
        return reply.code(204).send();
      },
    );
  };

/** `PUT /dev/channels/{id}/voice-start-time {voice_start_time: unix s | null}` (devMode, OURS). */
export const voiceStartTimeDevRoute =
  (guilds: GuildService, voice: VoiceChannelState): ApiArea =>
  (app) => {
    app.put(
      '/dev/channels/:channelId/voice-start-time',
      {
        schema: {
          params: pathParams('channelId'),
          body: z.object({ voice_start_time: z.number().int().min(0).nullable() }),
        },
      },
      async (request, reply) => {
        const { guild, channel } = guilds.channel(request.params.channelId);
        if (channel.type !== GUILD_VOICE) throw GuildErrors.wrongChannelType();
        const start = request.body.voice_start_time;
        voice.setStartTime(channel.id, start);
        guilds.publish(
          guild.id,
          'VOICE_CHANNEL_START_TIME_UPDATE',
          { id: channel.id, guild_id: guild.id, ...(start !== null && { voice_start_time: start }) },
          Intent.GUILDS,
        );
        return reply.code(204).send();
      },
    );
  };
