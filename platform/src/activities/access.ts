/**
 * Who may be in an activity instance, for the development route acting as a user: in a guild channel, a member
 * who sees the channel and holds USE_EMBEDDED_ACTIVITIES (in @everyone's default set); in a private channel, its
 * participants. Interaction launches do not come here: the interaction already checked its user.
 */
import { GuildErrors } from '../bot-api/guilds/errors.js';
import { has, Permission } from '../bot-api/guilds/permissions.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import type { ActivityInstanceRecord } from '../store/activity-types.js';
import type { ActivityPlace } from './location.js';

export function guildChannelPlace(guilds: GuildService, channelId: string, userId: string): ActivityPlace {
  const { guild, channel } = guilds.channel(channelId);
  checkGuildAccess(guilds, guild.id, channel.id, userId);
  return { kind: 'gc', channelId: channel.id, guildId: guild.id, participants: [] };
}

/** A guild instance's joiner needs the launcher's rights; a private one is checked by the service (participants). */
export function checkInstanceAccess(guilds: GuildService, instance: ActivityInstanceRecord, userId: string): void {
  if (instance.kind === 'gc') checkGuildAccess(guilds, instance.guildId!, instance.channelId, userId);
}

function checkGuildAccess(guilds: GuildService, guildId: string, channelId: string, userId: string): void {
  const { guild, channel } = guilds.channel(channelId);
  if (guild.id !== guildId) throw GuildErrors.unknownChannel();
  const member = guilds.requireMember(guild, userId);
  const permissions = guilds.channelPermissions(guild, channel, member);
  if (!has(permissions, Permission.VIEW_CHANNEL)) throw GuildErrors.missingAccess();
  if (!has(permissions, Permission.USE_EMBEDDED_ACTIVITIES)) throw GuildErrors.missingPermissions();
}
