/**
 * The one permission engine (PROTOCOL.md §14.2): every published bit, the guild base permissions (owner and
 * ADMINISTRATOR hold all; else @everyone ∪ the member's roles), channel overwrites (@everyone, then roles, then the
 * member) and the implicit rules. Values travel as decimal strings (bits pass 2^53).
 */
import type { MemberRecord, PermissionOverwrite, RoleRecord } from '../../store/bot-types.js';
import type { GuildRecord } from '../../store/types.js';

export const Permission = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  // Bit 47 is not assigned.
  SET_VOICE_CHANNEL_STATUS: 1n << 48n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
  PIN_MESSAGES: 1n << 51n,
  BYPASS_SLOWMODE: 1n << 52n,
} as const;

export type PermissionName = keyof typeof Permission;

/** Every defined bit: 8866461766385663 (2^53 − 1 without bit 47). */
export const ALL_BITS = Object.values(Permission).reduce((all, bit) => all | bit, 0n);
export const ALL_PERMISSIONS = ALL_BITS.toString();

/**
 * A fresh guild's @everyone role (the published default set: view, send, history, reactions, embeds, files,
 * external emoji/stickers/sounds/apps, voice connect and speak, activities, soundboard, polls, nickname changes,
 * invites, application commands, threads). PIN_MESSAGES and MANAGE_MESSAGES are not in it.
 */
export const EVERYONE_PERMISSIONS = '2248473465835073';

/** A permission string or 0n when it does not parse (stored values are validated on the way in). */
export function bits(value: string): bigint {
  try {
    return BigInt(value);
  } catch {
    return 0n;
  }
}

/** The @everyone role of a guild: stored when configured, else the default one (id = guild id, position 0). */
export function everyoneRole(guild: GuildRecord, stored: RoleRecord | undefined): RoleRecord {
  return (
    stored ?? {
      id: guild.id,
      guildId: guild.id,
      name: '@everyone',
      permissions: EVERYONE_PERMISSIONS,
      position: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      mentionable: false,
      icon: null,
      unicodeEmoji: null,
      flags: 0,
    }
  );
}

export interface PermissionInputs {
  guild: GuildRecord;
  /** Every role of the guild, @everyone included. */
  roles: RoleRecord[];
  member: MemberRecord;
}

/** Guild-level permissions of a member. */
export function basePermissions({ guild, roles, member }: PermissionInputs): bigint {
  if (guild.ownerId === member.userId) return ALL_BITS;
  const byId = new Map(roles.map((role) => [role.id, role]));
  let permissions = bits(byId.get(guild.id)?.permissions ?? EVERYONE_PERMISSIONS);
  for (const id of member.roles) permissions |= bits(byId.get(id)?.permissions ?? '0');
  if (permissions & Permission.ADMINISTRATOR) return ALL_BITS;
  return permissions;
}

/**
 * Channel permissions: base, then the @everyone overwrite, the member's roles' overwrites together, and the
 * member's own overwrite. Without VIEW_CHANNEL nothing else applies; without SEND_MESSAGES neither do the
 * permissions that only make sense while sending (mention everyone, files, embeds, TTS).
 */
export function channelPermissions(inputs: PermissionInputs, overwrites: PermissionOverwrite[]): bigint {
  const base = basePermissions(inputs);
  if (base & Permission.ADMINISTRATOR || base === ALL_BITS) return ALL_BITS;
  const { guild, member } = inputs;
  let permissions = base;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) permissions = (permissions & ~bits(everyone.deny)) | bits(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of overwrites) {
    if (overwrite.type === 0 && overwrite.id !== guild.id && member.roles.includes(overwrite.id)) {
      allow |= bits(overwrite.allow);
      deny |= bits(overwrite.deny);
    }
  }
  permissions = (permissions & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === member.userId);
  if (own) permissions = (permissions & ~bits(own.deny)) | bits(own.allow);
  if (!(permissions & Permission.VIEW_CHANNEL)) return 0n;
  if (!(permissions & Permission.SEND_MESSAGES)) {
    permissions &= ~(
      Permission.MENTION_EVERYONE |
      Permission.ATTACH_FILES |
      Permission.EMBED_LINKS |
      Permission.SEND_TTS_MESSAGES
    );
  }
  return permissions;
}

export function has(permissions: bigint, ...required: bigint[]): boolean {
  return required.every((bit) => (permissions & bit) === bit);
}

/**
 * The published rule for setting permissions ("a bot can only grant permissions it has"), as one test for every
 * bit set a caller writes — a role's permissions, an overwrite's allow or deny, the bits a granted role carries:
 * changing `before` into `after` touches only bits in `held`, or the caller is an administrator (owners hold every
 * bit). A bit already there and kept is no change, so editing a role's name never needs its permissions.
 */
export function changesOnlyHeldBits(held: bigint, before: bigint, after: bigint): boolean {
  return has(held, Permission.ADMINISTRATOR) || ((before ^ after) & ~held) === 0n;
}

/** The member's permissions in the guild without roles data (owners hold all; others @everyone's default). */
export function memberPermissions(guild: GuildRecord, userId: string): string {
  return guild.ownerId === userId ? ALL_PERMISSIONS : EVERYONE_PERMISSIONS;
}
