/**
 * The channel fields Create Guild Channel and Modify Channel share (PROTOCOL.md §14.4 "Channels over HTTP"): their
 * published limits, which channel types carry which field, and the rules for permission overwrites given in a body.
 */
import { z } from 'zod';
import { snowflakeSchema } from '../../http/validation.js';
import { fieldError } from '../../http/errors.js';
import type { GuildRecord } from '../../store/types.js';
import type { PermissionOverwrite } from '../../store/bot-types.js';
import { GuildErrors } from './errors.js';
import { ALL_BITS, bits } from './permissions.js';
import type { GuildService } from './service.js';
import { SNOWFLAKE_PATTERN } from '../../ids/snowflake.js';

/** The published limit of slowmode: six hours. */
export const MAX_RATE_LIMIT_PER_USER = 21_600;
/** Published bitrate range of a guild without boosts (bits per second). */
export const MIN_BITRATE = 8_000;
export const MAX_BITRATE = 96_000;
/** Published limit of channels per guild (error 30013). */
export const MAX_GUILD_CHANNELS = 500;

export const ChannelType = { GUILD_TEXT: 0, GUILD_VOICE: 2, GUILD_CATEGORY: 4 } as const;

/** An overwrite's allow or deny: a bit set as a string of digits. */
export const bitSetSchema = z.string().regex(SNOWFLAKE_PATTERN, 'must be a permission bit set as a string of digits');
export const overwriteBodySchema = z.object({
  id: snowflakeSchema,
  type: z.literal([0, 1]),
  allow: bitSetSchema.nullish(),
  deny: bitSetSchema.nullish(),
});

/**
 * Published fields of channel types or features this platform does not model. discord.js sends them as null, so
 * null (or nothing) is accepted; a value is refused rather than accepted and forgotten.
 */
const NOT_KEPT = [
  'rtc_region',
  'video_quality_mode',
  'default_auto_archive_duration',
  'default_reaction_emoji',
  'default_thread_rate_limit_per_user',
  'default_sort_order',
  'default_forum_layout',
  'default_tag_setting',
  'available_tags',
] as const;
const notKept = z.null({ error: 'not kept by this platform: only null is accepted' }).optional();

/** Fields both routes accept; null means "the default" (discord.js sends nulls for what it was not given). */
export const channelFieldsSchema = {
  name: z.string().min(1).max(100),
  topic: z.string().max(1024).nullish(),
  nsfw: z.boolean().nullish(),
  rate_limit_per_user: z.int().min(0).max(MAX_RATE_LIMIT_PER_USER).nullish(),
  bitrate: z.int().min(MIN_BITRATE).max(MAX_BITRATE).nullish(),
  user_limit: z.int().min(0).max(99).nullish(),
  position: z.int().min(0).max(2_147_483_647).nullish(),
  parent_id: snowflakeSchema.nullish(),
  permission_overwrites: z.array(overwriteBodySchema).max(100).nullish(),
  ...Object.fromEntries(NOT_KEPT.map((field) => [field, notKept])),
};

/** Which fields only some channel types carry: a field given for another type is refused, not ignored. */
const FIELDS_BY_TYPE: Record<string, readonly number[]> = {
  topic: [ChannelType.GUILD_TEXT],
  rate_limit_per_user: [ChannelType.GUILD_TEXT],
  bitrate: [ChannelType.GUILD_VOICE],
  user_limit: [ChannelType.GUILD_VOICE],
  parent_id: [ChannelType.GUILD_TEXT, ChannelType.GUILD_VOICE],
};

export function requireFieldsFitType(type: number, body: Record<string, unknown>): void {
  for (const [field, types] of Object.entries(FIELDS_BY_TYPE)) {
    if (body[field] !== undefined && body[field] !== null && !types.includes(type)) {
      throw fieldError([field], 'CHANNEL_TYPE_INVALID', `Channels of type ${type} have no ${field}.`);
    }
  }
}

/** A parent must be a category of the same guild (and never the channel itself). */
export function requireParent(
  guilds: GuildService,
  guild: GuildRecord,
  parentId: string | null | undefined,
  self?: string,
): void {
  if (parentId === undefined || parentId === null) return;
  const parent = guilds.channelInGuild(guild, parentId);
  if (!parent || parent.type !== ChannelType.GUILD_CATEGORY || parent.id === self) {
    throw fieldError(['parent_id'], 'CHANNEL_PARENT_INVALID', 'The parent must be a category of this guild.');
  }
}

/**
 * Overwrites given in a body: known bits only; targets that exist (a role of the guild or a member); and, as for
 * every permission write, a caller who is not an administrator changes only bits it holds (`held`) — measured
 * against the overwrite of the same target in `before` (none: a new one).
 */
export function checkedOverwrites(
  guilds: GuildService,
  guild: GuildRecord,
  held: bigint,
  before: readonly PermissionOverwrite[],
  given: ReadonlyArray<z.infer<typeof overwriteBodySchema>>,
  /**
   * Where a bad bit set is reported: under `permission_overwrites[i]` in a channel body, at the top for one overwrite.
   */
  fieldPath: (index: number) => Array<string | number> = (index) => ['permission_overwrites', index],
): PermissionOverwrite[] {
  const roleIds = new Set(guilds.roles(guild).map((role) => role.id));
  return given.map((o, index) => {
    const allow = BigInt(o.allow ?? '0');
    const deny = BigInt(o.deny ?? '0');
    for (const [field, value] of [
      ['allow', allow],
      ['deny', deny],
    ] as const) {
      if ((value & ~ALL_BITS) !== 0n)
        throw fieldError([...fieldPath(index), field], 'PERMISSIONS_INVALID', 'Unknown permission bits.');
    }
    const exists = o.type === 0 ? roleIds.has(o.id) : guilds.member(guild.id, o.id) !== undefined;
    if (!exists) throw o.type === 0 ? GuildErrors.unknownRole() : GuildErrors.unknownMember();
    const next: PermissionOverwrite = { id: o.id, type: o.type, allow: allow.toString(), deny: deny.toString() };
    requireMayChangeOverwrite(
      guilds,
      held,
      before.find((p) => p.id === o.id),
      next,
    );
    return next;
  });
}

/** One overwrite created, changed or deleted (`undefined` on either side): its allow and deny under the one rule. */
export function requireMayChangeOverwrite(
  guilds: GuildService,
  held: bigint,
  previous: PermissionOverwrite | undefined,
  next: PermissionOverwrite | undefined,
): void {
  guilds.requireMayChangeBits(held, bits(previous?.allow ?? '0'), bits(next?.allow ?? '0'));
  guilds.requireMayChangeBits(held, bits(previous?.deny ?? '0'), bits(next?.deny ?? '0'));
}

/** Overwrites compared as the audit log records them (order does not matter). */
export function sameOverwrites(a: readonly PermissionOverwrite[], b: readonly PermissionOverwrite[]): boolean {
  const key = (list: readonly PermissionOverwrite[]) =>
    JSON.stringify([...list].map((o) => [o.id, o.type, o.allow, o.deny]).sort());
  return key(a) === key(b);
}
