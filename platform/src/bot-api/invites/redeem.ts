/**
 * Redeeming a guild invite (PROTOCOL.md §14.7), through the OURS `POST /invites/{code}` that also redeems lobby
 * channel invites (§10.5): the user joins the guild with the invite's roles, the invite's `uses` grows, and the
 * guild's bots get GUILD_MEMBER_ADD. An invite that expired, is used up, or names target users the caller is not
 * among answers like an unknown one (404 10006). A member redeeming again stays a member and uses nothing.
 */
import type { PlatformKernel } from '../../kernel.js';
import { GuildErrors } from '../guilds/errors.js';
import { joinGuild } from '../guilds/join.js';
import { GuildService } from '../guilds/service.js';
import type { InviteRecord } from '../../store/bot-types.js';
import type { UserRecord } from '../../store/types.js';

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** The guild invite with this code, if there is one (usable or not). */
export function findGuildInvite(ctx: PlatformKernel, code: string): InviteRecord | undefined {
  return CODE.test(code) ? ctx.store.botGuilds.getInvite(code) : undefined;
}

export function redeemGuildInvite(ctx: PlatformKernel, invite: InviteRecord, user: UserRecord) {
  const guilds = new GuildService(ctx);
  const { guild, channel } = guilds.channel(invite.channelId);
  const expired = invite.maxAge > 0 && invite.createdAt + invite.maxAge * 1000 <= ctx.now();
  const usedUp = invite.maxUses > 0 && invite.uses >= invite.maxUses;
  const targets = ctx.store.botGuilds.targetUsers(invite.code);
  if (expired || usedUp || (targets.length > 0 && !targets.includes(user.id))) throw GuildErrors.unknownInvite();
  // Roles deleted since the invite was made are not granted.
  const roles = new Set(guilds.roles(guild).map((role) => role.id));
  ctx.store.transaction(() => {
    const { created } = joinGuild(
      ctx,
      guilds,
      guild.id,
      user,
      invite.roleIds.filter((id) => roles.has(id)),
    );
    if (created) ctx.store.botGuilds.updateInvite({ ...invite, uses: invite.uses + 1 });
  });
  return {
    code: invite.code,
    guild: { id: guild.id, name: guild.name, icon: guild.icon },
    channel: { id: channel.id, name: channel.name, type: channel.type, guild_id: guild.id },
  };
}
