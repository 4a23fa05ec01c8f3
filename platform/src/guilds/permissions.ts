import type { GuildRecord } from '../store/types.js';

/**
 * Permissions without roles or overwrites (the store models neither): owners hold every bit, other members the
 * default set of a fresh guild's @everyone role (it includes VIEW_CHANNEL and SEND_MESSAGES, not MANAGE_CHANNELS).
 */
export const ALL_PERMISSIONS = '2251799813685247';
export const EVERYONE_PERMISSIONS = '2248473465835073';

/** The member's permissions in the guild (and so in each of its channels), as the decimal string of the wire. */
export function memberPermissions(guild: GuildRecord, userId: string): string {
  return guild.ownerId === userId ? ALL_PERMISSIONS : EVERYONE_PERMISSIONS;
}
