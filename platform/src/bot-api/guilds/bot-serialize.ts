/** Published shapes of the guild model (PROTOCOL.md §14.2): roles, members, channels, guilds, GUILD_CREATE. */
import type { PlatformKernel } from '../../kernel.js';
import { snowflakeTimestampMs } from '../../ids/snowflake.js';
import type { ChannelSettingsRecord, MemberRecord, RoleRecord } from '../../store/bot-types.js';
import type { ChannelRecord, GuildRecord } from '../../store/types.js';
import { knownUserJson } from '../../users/serialize.js';
import { channelJson } from './channels.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `color` is deprecated but still sent: it mirrors `colors.primary_color`. */
export function roleJson(role: RoleRecord) {
  return {
    id: role.id,
    name: role.name,
    description: null,
    permissions: role.permissions,
    // The string form of earlier API versions, still read by some clients: the same decimal string.
    permissions_new: role.permissions,
    position: role.position,
    color: role.colors.primary_color,
    colors: role.colors,
    hoist: role.hoist,
    managed: false,
    mentionable: role.mentionable,
    icon: role.icon,
    unicode_emoji: role.unicodeEmoji,
    flags: role.flags,
  };
}

/** The partial role of Get Channel Invites: id, name, position, color, colors, icon, unicode_emoji. */
export function partialRoleJson(role: RoleRecord) {
  return {
    id: role.id,
    name: role.name,
    position: role.position,
    color: role.colors.primary_color,
    colors: role.colors,
    icon: role.icon,
    unicode_emoji: role.unicodeEmoji,
  };
}

/** A membership without a profile row (added before roles existed) joined when the guild was created. */
export function joinedAt(member: MemberRecord): number {
  return member.joinedAt > 0 ? member.joinedAt : snowflakeTimestampMs(member.guildId);
}

export function memberJson(ctx: PlatformKernel, member: MemberRecord) {
  return {
    user: knownUserJson(ctx, member.userId),
    nick: member.nick,
    avatar: member.avatar,
    banner: member.banner,
    roles: member.roles,
    joined_at: iso(joinedAt(member))!,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: member.flags,
    pending: false,
    communication_disabled_until: iso(member.communicationDisabledUntil),
  };
}

/** PrivateGuildMemberResponse: the member plus its own `bio`. */
export function privateMemberJson(ctx: PlatformKernel, member: MemberRecord) {
  return { ...memberJson(ctx, member), bio: member.bio ?? '' };
}

export function fullChannelJson(channel: ChannelRecord, settings: ChannelSettingsRecord) {
  return {
    ...channelJson(channel),
    nsfw: settings.nsfw,
    permission_overwrites: settings.overwrites.map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow,
      deny: o.deny,
      allow_new: o.allow,
      deny_new: o.deny,
    })),
    ...(channel.type === 0 && {
      topic: settings.topic,
      rate_limit_per_user: settings.rateLimitPerUser,
      last_message_id: null,
    }),
    ...(channel.type === 2 && { bitrate: settings.bitrate, user_limit: settings.userLimit, rtc_region: null }),
  };
}

export function guildJson(guild: GuildRecord, roles: RoleRecord[], counts?: { members: number }) {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner,
    splash: null,
    discovery_splash: null,
    owner_id: guild.ownerId ?? '0',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: roles.map(roleJson),
    emojis: [],
    stickers: [],
    features: guild.features,
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    vanity_url_code: null,
    description: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    nsfw_level: 0,
    max_members: 500_000,
    max_presences: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    home_header: null,
    region: 'local',
    widget_enabled: false,
    widget_channel_id: null,
    nsfw: false,
    incidents_data: null,
    ...(counts && { approximate_member_count: counts.members, approximate_presence_count: 0 }),
  };
}
