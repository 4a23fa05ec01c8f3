/**
 * Whether a guild member may use a command in a channel (PROTOCOL.md §17.9), the published evaluation of command
 * permissions: overwrites set for the command win over those set for the whole application (the overwrites stored
 * under the application id); with no overwrite for the user, `default_member_permissions` decides.
 *
 * - Channel check: the command's overwrite for the channel, else its "all channels" overwrite (guild id − 1), then the
 *   same two at application level; none → allowed.
 * - Member check: the command's USER overwrite, else its ROLE overwrites of the member's roles (one allowing role is
 *   enough), else its @everyone overwrite (role id = guild id); then the same at application level; none → the
 *   member's guild permissions must hold every bit of `default_member_permissions` ("0": administrators only).
 */
import { Permission } from '../bot-api/guilds/permissions.js';
import type { CommandPermissionRecord } from '../store/interaction-types.js';

export const CommandPermissionType = { ROLE: 1, USER: 2, CHANNEL: 3 } as const;

/** The published constant for "every channel of the guild": the guild id minus one. */
export function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

export interface PermissionSubject {
  guildId: string;
  channelId: string;
  userId: string;
  roleIds: readonly string[];
  /** The member's guild permissions (ADMINISTRATOR and the owner hold every bit). */
  guildPermissions: bigint;
}

/** The decision of one level (command or application): true/false when an overwrite applies, undefined otherwise. */
function channelDecision(
  overwrites: readonly CommandPermissionRecord[],
  subject: PermissionSubject,
): boolean | undefined {
  const channels = overwrites.filter((o) => o.type === CommandPermissionType.CHANNEL);
  return (
    channels.find((o) => o.id === subject.channelId) ?? channels.find((o) => o.id === allChannelsId(subject.guildId))
  )?.permission;
}

function memberDecision(
  overwrites: readonly CommandPermissionRecord[],
  subject: Omit<PermissionSubject, 'channelId'>,
): boolean | undefined {
  const user = overwrites.find((o) => o.type === CommandPermissionType.USER && o.id === subject.userId);
  if (user) return user.permission;
  const roles = overwrites.filter(
    (o) => o.type === CommandPermissionType.ROLE && o.id !== subject.guildId && subject.roleIds.includes(o.id),
  );
  if (roles.length > 0) return roles.some((o) => o.permission);
  return overwrites.find((o) => o.type === CommandPermissionType.ROLE && o.id === subject.guildId)?.permission;
}

export interface PermissionLevels {
  command: readonly CommandPermissionRecord[];
  application: readonly CommandPermissionRecord[];
}

export function mayUseCommand(
  subject: PermissionSubject,
  levels: PermissionLevels,
  defaultMemberPermissions: string | null,
): boolean {
  const channel = channelDecision(levels.command, subject) ?? channelDecision(levels.application, subject);
  if (channel === false) return false;
  return memberMayUse(subject, levels, defaultMemberPermissions);
}

/** The member check alone (channel overwrites aside): whether the member may run the command in some channel. */
export function memberMayUse(
  subject: Omit<PermissionSubject, 'channelId'>,
  levels: PermissionLevels,
  defaultMemberPermissions: string | null,
): boolean {
  const member = memberDecision(levels.command, subject) ?? memberDecision(levels.application, subject);
  if (member !== undefined) return member;
  if (defaultMemberPermissions === null) return true;
  const required = BigInt(defaultMemberPermissions);
  // "0" disables the command for everyone but administrators (and the owner, who holds every bit).
  if (required === 0n) return (subject.guildPermissions & Permission.ADMINISTRATOR) !== 0n;
  return (subject.guildPermissions & required) === required;
}
