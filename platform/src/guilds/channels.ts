import type { ChannelLink } from '../store/lobby-types.js';
import type { ChannelRecord, GuildRecord } from '../store/types.js';
import { memberPermissions } from './permissions.js';

export type ChannelJson = Record<string, unknown>;

/**
 * A guild channel object as the viewer sees it. `permission_overwrites` is always empty and `nsfw` false (the store
 * models neither); `permissions` is the viewer's computed permission set in the channel, like the channel objects of
 * resolved interaction data — the SDK derives `IsLinkable` from it. `linked_lobby` names the lobby linked to the
 * channel, or is null.
 */
export function guildChannelJson(guild: GuildRecord, channel: ChannelRecord, viewerId: string, link?: ChannelLink): ChannelJson {
  return {
    id: channel.id,
    type: channel.type,
    guild_id: guild.id,
    name: channel.name,
    position: channel.position,
    parent_id: channel.parentId,
    nsfw: false,
    permission_overwrites: [],
    permissions: memberPermissions(guild, viewerId),
    linked_lobby: link ? { application_id: link.applicationId, lobby_id: link.lobbyId } : null,
  };
}
