/**
 * Command permissions (PROTOCOL.md §17.9): per guild, per command (or for the whole application under its id), at
 * most 100 overwrites of ROLE, USER or CHANNEL. Read by the application's bot (or a user token of the application);
 * written only with a user's Bearer token holding `applications.commands.permissions.update`, by a member who may
 * manage the guild and its roles, run the command and manage what the write changes (requireMayEdit). A write fires
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE to the application's bot.
 */
import type { PlatformKernel } from '../kernel.js';
import { GuildErrors } from '../bot-api/guilds/errors.js';
import { has, Permission } from '../bot-api/guilds/permissions.js';
import type { GuildService } from '../bot-api/guilds/service.js';
import { fieldError } from '../http/errors.js';
import type { MemberRecord } from '../store/bot-types.js';
import type { GuildRecord } from '../store/types.js';
import type { CommandPermissionRecord, CommandPermissionsRecord, CommandRecord } from '../store/interaction-types.js';
import { allChannelsId, CommandPermissionType, mayUseCommand, memberMayUse } from './permission-rules.js';
import { CommandErrors } from './service.js';
import { publishedError } from '../http/published-errors.js';
import { isSnowflake } from '../ids/snowflake.js';

export const CommandPermissionErrors = {
  unknownPermissions: () => publishedError('UNKNOWN_COMMAND_PERMISSIONS'),
};

export function permissionsJson(record: CommandPermissionsRecord) {
  return {
    id: record.commandId,
    application_id: record.applicationId,
    guild_id: record.guildId,
    permissions: record.permissions,
  };
}

export class CommandPermissionService {
  constructor(
    private readonly ctx: PlatformKernel,
    private readonly guilds: GuildService,
  ) {}

  list(applicationId: string, guild: GuildRecord): CommandPermissionsRecord[] {
    return this.ctx.store.interactions.listCommandPermissions(applicationId, guild.id);
  }

  get(applicationId: string, guild: GuildRecord, commandId: string): CommandPermissionsRecord {
    this.target(applicationId, guild, commandId);
    const record = this.ctx.store.interactions.getCommandPermissions(applicationId, guild.id, commandId);
    if (!record) throw CommandPermissionErrors.unknownPermissions();
    return record;
  }

  /** Replaces the overwrites of one command (or of the application) in a guild; `userId` is the Bearer token's user. */
  set(
    applicationId: string,
    guild: GuildRecord,
    userId: string,
    commandId: string,
    permissions: CommandPermissionRecord[],
  ): CommandPermissionsRecord {
    const editor = this.guilds.requireGuildPermissions(guild, userId, Permission.MANAGE_GUILD, Permission.MANAGE_ROLES);
    this.target(applicationId, guild, commandId);
    this.checkTargets(guild, permissions);
    this.requireMayEdit(applicationId, guild, editor, commandId, permissions);
    const record: CommandPermissionsRecord = { applicationId, guildId: guild.id, commandId, permissions };
    this.ctx.store.interactions.setCommandPermissions(record);
    const app = this.ctx.store.applications.get(applicationId)!;
    // No intent gates this dispatch (published); it goes to the application's bot sessions.
    this.ctx.bus.publish({
      t: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
      d: permissionsJson(record),
      to: { userIds: [app.botUserId] },
    });
    return record;
  }

  /** Whether `userId` may use `command` in the channel (default_member_permissions and the overwrites). */
  mayUse(command: CommandRecord, guild: GuildRecord, channelId: string, userId: string): boolean {
    const member = this.guilds.requireMember(guild, userId);
    const store = this.ctx.store.interactions;
    const commandLevel = store.getCommandPermissions(command.applicationId, guild.id, command.id)?.permissions ?? [];
    const appLevel =
      store.getCommandPermissions(command.applicationId, guild.id, command.applicationId)?.permissions ?? [];
    return mayUseCommand(
      {
        guildId: guild.id,
        channelId,
        userId,
        roleIds: member.roles,
        guildPermissions: this.guilds.guildPermissions(guild, member),
      },
      { command: commandLevel, application: appLevel },
      (command.body.default_member_permissions as string | null | undefined) ?? null,
    );
  }

  /**
   * The published conditions on the editing user, besides MANAGE_GUILD and MANAGE_ROLES: it can run the command
   * being edited (for the application's entry, every command of the application here) — so nobody hands out a
   * command gated on bits they lack, the rule every permission write follows — and it can manage what the edit
   * changes: a role below its highest (@everyone always), a member below it (or itself), a channel where it holds
   * MANAGE_ROLES. Entries kept as they were are no change. Administrators can run every command; the hierarchy
   * binds everyone but the owner. 50013 otherwise.
   */
  private requireMayEdit(
    applicationId: string,
    guild: GuildRecord,
    editor: MemberRecord,
    commandId: string,
    next: readonly CommandPermissionRecord[],
  ): void {
    const store = this.ctx.store.interactions;
    const held = this.guilds.guildPermissions(guild, editor);
    if (!has(held, Permission.ADMINISTRATOR)) {
      const commands =
        commandId === applicationId
          ? [...store.listCommands(applicationId, null), ...store.listCommands(applicationId, guild.id)]
          : [store.getCommand(applicationId, commandId)!];
      const subject = { guildId: guild.id, userId: editor.userId, roleIds: editor.roles, guildPermissions: held };
      const appLevel = store.getCommandPermissions(applicationId, guild.id, applicationId)?.permissions ?? [];
      for (const command of commands) {
        const levels = {
          command: store.getCommandPermissions(applicationId, guild.id, command.id)?.permissions ?? [],
          application: appLevel,
        };
        if (
          !memberMayUse(subject, levels, (command.body.default_member_permissions as string | null | undefined) ?? null)
        )
          throw GuildErrors.missingPermissions();
      }
    }
    const previous = store.getCommandPermissions(applicationId, guild.id, commandId)?.permissions ?? [];
    const same = (a: CommandPermissionRecord, b: CommandPermissionRecord) =>
      a.type === b.type && a.id === b.id && a.permission === b.permission;
    const changed = [
      ...next.filter((o) => !previous.some((p) => same(o, p))),
      ...previous.filter((p) => !next.some((o) => same(o, p))),
    ];
    const highest = this.guilds.highestPosition(guild, editor);
    for (const overwrite of changed) {
      if (!this.mayManage(guild, editor, highest, overwrite)) throw GuildErrors.missingPermissions();
    }
  }

  private mayManage(
    guild: GuildRecord,
    editor: MemberRecord,
    highest: number,
    overwrite: CommandPermissionRecord,
  ): boolean {
    if (overwrite.type === CommandPermissionType.ROLE) {
      return (
        overwrite.id === guild.id || (this.ctx.store.botGuilds.getRole(guild.id, overwrite.id)?.position ?? 0) < highest
      );
    }
    if (overwrite.type === CommandPermissionType.USER) {
      if (overwrite.id === editor.userId) return true;
      const target = this.guilds.member(guild.id, overwrite.id);
      return guild.ownerId !== overwrite.id && (target ? this.guilds.highestPosition(guild, target) : 0) < highest;
    }
    if (overwrite.id === allChannelsId(guild.id)) return true;
    const channel = this.guilds.channelInGuild(guild, overwrite.id)!;
    return has(
      this.guilds.channelPermissions(guild, channel, editor),
      Permission.VIEW_CHANNEL,
      Permission.MANAGE_ROLES,
    );
  }

  /** The command must be the application's (global, or of this guild); the application id means every command. */
  private target(applicationId: string, guild: GuildRecord, commandId: string): void {
    if (commandId === applicationId) return;
    const command = isSnowflake(commandId)
      ? this.ctx.store.interactions.getCommand(applicationId, commandId)
      : undefined;
    if (!command || (command.guildId !== null && command.guildId !== guild.id)) throw CommandErrors.unknownCommand();
  }

  /** Each overwrite names a role of the guild (or @everyone), a known user, or a channel of the guild (or all). */
  private checkTargets(guild: GuildRecord, permissions: CommandPermissionRecord[]): void {
    const seen = new Set<string>();
    for (const [index, overwrite] of permissions.entries()) {
      const at = ['permissions', index, 'id'];
      const key = `${overwrite.type}:${overwrite.id}`;
      if (seen.has(key))
        throw fieldError(
          at,
          'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE',
          'Each role, user or channel may appear once.',
        );
      seen.add(key);
      const known =
        overwrite.type === CommandPermissionType.ROLE
          ? overwrite.id === guild.id || this.ctx.store.botGuilds.getRole(guild.id, overwrite.id) !== undefined
          : overwrite.type === CommandPermissionType.USER
            ? this.ctx.store.users.get(overwrite.id) !== undefined
            : overwrite.id === allChannelsId(guild.id) || this.guilds.channelInGuild(guild, overwrite.id) !== undefined;
      if (!known)
        throw fieldError(
          at,
          'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_TARGET',
          'Unknown role, user or channel for this guild.',
        );
    }
  }
}
