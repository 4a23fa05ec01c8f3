/**
 * A user joins a guild (a redeemed invite, or the development route): a member record with the given roles, and
 * GUILD_MEMBER_ADD to the guild's bots with the GUILD_MEMBERS intent (PROTOCOL.md §14.3). Joining a guild one is
 * already in changes nothing.
 */
import type { PlatformKernel } from '../../kernel.js';
import type { MemberRecord } from '../../store/bot-types.js';
import type { UserRecord } from '../../store/types.js';
import { memberJson } from './bot-serialize.js';
import { Intent, type GuildService } from './service.js';

export function joinGuild(
  ctx: PlatformKernel,
  guilds: GuildService,
  guildId: string,
  user: UserRecord,
  roleIds: readonly string[] = [],
): { member: MemberRecord; created: boolean } {
  const existing = guilds.member(guildId, user.id);
  if (existing) return { member: existing, created: false };
  const member: MemberRecord = {
    guildId,
    userId: user.id,
    nick: null,
    avatar: null,
    banner: null,
    bio: null,
    roles: [...roleIds],
    joinedAt: ctx.now(),
    flags: 0,
    communicationDisabledUntil: null,
  };
  ctx.store.botGuilds.upsertMember(member);
  guilds.publish(guildId, 'GUILD_MEMBER_ADD', { guild_id: guildId, ...memberJson(ctx, member) }, Intent.GUILD_MEMBERS);
  return { member, created: true };
}
