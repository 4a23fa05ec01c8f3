import type { GuildChannelResponse } from 'discord-api-spec';
import type { ChannelRecord } from '../../store/types.js';

/** The guild channel object (published `GuildChannelResponse`): text (0), voice (2) or category (4). */
export type ChannelJson = GuildChannelResponse;

/**
 * The base guild channel object, from the channel record alone: `permission_overwrites` empty, `nsfw` false, `flags`
 * 0. Lobbies carry it as `linked_channel`; the channel routes fill in the channel's settings (bot-serialize.ts).
 */
export function channelJson(channel: ChannelRecord): ChannelJson {
  return {
    id: channel.id,
    // The store (config schema) only holds the published types 0, 2 and 4.
    type: channel.type as ChannelJson['type'],
    flags: 0,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    parent_id: channel.parentId,
    nsfw: false,
    permission_overwrites: [],
  };
}
