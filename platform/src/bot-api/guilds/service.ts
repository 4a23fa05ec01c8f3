/**
 * The guild model as the bot API sees it (PROTOCOL.md §14.2): lookups that answer with the published error codes,
 * roles (@everyone included), members with their profiles, permissions through the one engine, guild events routed
 * by intent to the bots in the guild, and audit-log entries.
 */
import type { PlatformKernel } from '../../kernel.js';
import type { AuditEntryRecord, ChannelSettingsRecord, MemberRecord, RoleRecord } from '../../store/bot-types.js';
import type { ChannelRecord, GuildRecord } from '../../store/types.js';
import { GuildErrors } from './errors.js';
import { bits, changesOnlyHeldBits, channelPermissions, basePermissions, everyoneRole, has } from './permissions.js';
import { isSnowflake, requireById } from '../../ids/snowflake.js';

/** Gateway intents (bit values) that route guild events. */
export const Intent = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_PRESENCES: 1 << 8,
  GUILD_MESSAGES: 1 << 9,
  // Reactions in guild channels (DIRECT_MESSAGE_REACTIONS, 1 << 13, has no events here: bots have no DM channels).
  GUILD_MESSAGE_REACTIONS: 1 << 10,
  GUILD_MESSAGE_TYPING: 1 << 11,
  GUILD_INVITES: 1 << 6,
  GUILD_VOICE_STATES: 1 << 7,
  MESSAGE_CONTENT: 1 << 15,
  AUTO_MODERATION_CONFIGURATION: 1 << 20,
  AUTO_MODERATION_EXECUTION: 1 << 21,
} as const;

export class GuildService {
  constructor(private readonly ctx: PlatformKernel) {}

  guild(id: string): GuildRecord {
    const guild = requireById(id, (id) => this.ctx.store.guilds.get(id), GuildErrors.unknownGuild);
    return guild;
  }

  channel(id: string): { channel: ChannelRecord; guild: GuildRecord } {
    const channel = isSnowflake(id) ? this.ctx.store.guilds.getChannel(id) : undefined;
    const guild = channel ? this.ctx.store.guilds.get(channel.guildId) : undefined;
    if (!channel || !guild) throw GuildErrors.unknownChannel();
    return { channel, guild };
  }

  /** The channel when it exists and belongs to `guild`. */
  channelInGuild(guild: GuildRecord, channelId: string): ChannelRecord | undefined {
    const channel = this.ctx.store.guilds.getChannel(channelId);
    return channel?.guildId === guild.id ? channel : undefined;
  }

  settings(channelId: string): ChannelSettingsRecord {
    return this.ctx.store.botGuilds.channelSettings(channelId);
  }

  /** @everyone first, then the other roles by position. */
  roles(guild: GuildRecord): RoleRecord[] {
    const stored = this.ctx.store.botGuilds.listRoles(guild.id);
    const everyone = everyoneRole(
      guild,
      stored.find((role) => role.id === guild.id),
    );
    return [everyone, ...stored.filter((role) => role.id !== guild.id)];
  }

  member(guildId: string, userId: string): MemberRecord | undefined {
    return this.ctx.store.botGuilds.getMember(guildId, userId);
  }

  /** The caller's membership; a guild the caller is not in is 403 50001 (as for the published API). */
  requireMember(guild: GuildRecord, userId: string): MemberRecord {
    const member = this.member(guild.id, userId);
    if (!member) throw GuildErrors.missingAccess();
    return member;
  }

  guildPermissions(guild: GuildRecord, member: MemberRecord): bigint {
    return basePermissions({ guild, roles: this.roles(guild), member });
  }

  channelPermissions(guild: GuildRecord, channel: ChannelRecord, member: MemberRecord): bigint {
    return channelPermissions({ guild, roles: this.roles(guild), member }, this.settings(channel.id).overwrites);
  }

  /** Guild-level permission check for the caller: not a member → 50001, missing a bit → 50013. */
  requireGuildPermissions(guild: GuildRecord, userId: string, ...bits: bigint[]): MemberRecord {
    const member = this.requireMember(guild, userId);
    if (!has(this.guildPermissions(guild, member), ...bits)) throw GuildErrors.missingPermissions();
    return member;
  }

  /** Channel check: not a member or no VIEW_CHANNEL → 50001; missing another bit → 50013. Returns the permissions. */
  requireChannelPermissions(guild: GuildRecord, channel: ChannelRecord, userId: string, ...bits: bigint[]): bigint {
    const member = this.requireMember(guild, userId);
    const permissions = this.channelPermissions(guild, channel, member);
    if (permissions === 0n) throw GuildErrors.missingAccess();
    if (!has(permissions, ...bits)) throw GuildErrors.missingPermissions();
    return permissions;
  }

  /**
   * Who may set permissions (PROTOCOL.md §14.2): `before` → `after` of one bit set may change only bits in `held` —
   * the caller's guild permissions, or its permissions in the channel for an overwrite — unless it is an
   * administrator. Every route that writes permission bits goes through here; 50013 otherwise.
   */
  requireMayChangeBits(held: bigint, before: bigint, after: bigint): void {
    if (!changesOnlyHeldBits(held, before, after)) throw GuildErrors.missingPermissions();
  }

  /**
   * Granting roles (to a member, or to whoever joins through an invite): each role must sit below the actor's
   * highest role (published hierarchy) and carry only bits the actor holds (the rule above: a grant hands the role's
   * bits over). @everyone is never granted; callers refuse it as an unknown role first.
   */
  requireMayGrant(guild: GuildRecord, actor: MemberRecord, roles: readonly RoleRecord[]): void {
    const highest = this.highestPosition(guild, actor);
    const held = this.guildPermissions(guild, actor);
    for (const role of roles) {
      if (role.position >= highest) throw GuildErrors.missingPermissions();
      this.requireMayChangeBits(held, 0n, bits(role.permissions));
    }
  }

  /** The member's highest role position (the owner is above every role). */
  highestPosition(guild: GuildRecord, member: MemberRecord): number {
    if (guild.ownerId === member.userId) return Number.MAX_SAFE_INTEGER;
    const roles = new Map(this.roles(guild).map((role) => [role.id, role]));
    return Math.max(0, ...member.roles.map((id) => roles.get(id)?.position ?? 0));
  }

  /** Publishes a guild event to the bots in the guild whose sessions asked for `intent`. */
  publish(guildId: string, t: string, d: unknown, intent: number): void {
    const userIds = this.ctx.store.botGuilds.botMemberIds(guildId);
    if (userIds.length > 0) this.ctx.bus.publish({ t, d, to: { userIds, intent } });
  }

  /**
   * GUILD_MEMBER_UPDATE: other bots need GUILD_MEMBERS, but a bot is always told about its own member (published
   * rule), whatever its intents.
   */
  publishMemberUpdate(guildId: string, memberUserId: string, d: unknown): void {
    const bots = this.ctx.store.botGuilds.botMemberIds(guildId);
    const others = bots.filter((id) => id !== memberUserId);
    if (others.length > 0)
      this.ctx.bus.publish({ t: 'GUILD_MEMBER_UPDATE', d, to: { userIds: others, intent: Intent.GUILD_MEMBERS } });
    if (bots.includes(memberUserId))
      this.ctx.bus.publish({ t: 'GUILD_MEMBER_UPDATE', d, to: { userIds: [memberUserId] } });
  }

  audit(entry: Omit<AuditEntryRecord, 'id'>): void {
    this.ctx.store.botGuilds.insertAudit({ id: this.ctx.ids.next(), ...entry });
  }
}
