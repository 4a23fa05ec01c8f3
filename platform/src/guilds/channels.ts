import type { GuildChannelResponse } from 'discord-api-spec';
import type { ChannelLink } from '../store/lobby-types.js';
import type { ChannelRecord, GuildRecord } from '../store/types.js';
import { memberPermissions } from './permissions.js';

/** The guild channel object (published `GuildChannelResponse`): text (0), voice (2) or category (4). */
export type ChannelJson = GuildChannelResponse;

/** The channel list entry adds the viewer's `permissions` and `linked_lobby` (OURS, PROTOCOL.md §4). */
export type ViewedChannelJson = ChannelJson & { permissions: string; linked_lobby: { application_id: string; lobby_id: string } | null };

/**
 * A guild channel object. `permission_overwrites` is always empty, `nsfw` false and `flags` 0 (the store models
 * none of them). Lobbies carry it as `linked_channel`.
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

/**
 * A guild channel object as the viewer sees it: `permissions` is the viewer's computed permission set in the
 * channel, like the channel objects of resolved interaction data — the SDK derives `IsLinkable` from it.
 * `linked_lobby` names the lobby linked to the channel, or is null.
 */
export function guildChannelJson(guild: GuildRecord, channel: ChannelRecord, viewerId: string, link?: ChannelLink): ViewedChannelJson {
  return {
    ...channelJson(channel),
    permissions: memberPermissions(guild, viewerId),
    linked_lobby: link ? { application_id: link.applicationId, lobby_id: link.lobbyId } : null,
  };
}
