/**
 * Command permissions (PROTOCOL.md §17.9): per guild, per command (or for the whole application under its id), at
 * most 100 overwrites of ROLE, USER or CHANNEL. Read by the application's bot (or a user token of the application);
 * written only with a user's Bearer token holding `applications.commands.permissions.update`, by a member who may
 * manage the guild and its roles. A write fires APPLICATION_COMMAND_PERMISSIONS_UPDATE to the application's bot.
 */
import type { PlatformContext } from '../context.js';
import { Permission } from '../guilds/permissions.js';
import type { GuildService } from '../guilds/service.js';
import { ApiError, fieldError } from '../http/errors.js';
import type { GuildRecord } from '../store/types.js';
import type { CommandPermissionRecord, CommandPermissionsRecord, CommandRecord } from '../store/interaction-types.js';
import { allChannelsId, CommandPermissionType, mayUseCommand } from './permission-rules.js';
import { CommandErrors } from './service.js';

export const CommandPermissionErrors = {
  unknownPermissions: () => new ApiError(404, 10066, 'Unknown application command permissions'),
};

export function permissionsJson(record: CommandPermissionsRecord) {
  return { id: record.commandId, application_id: record.applicationId, guild_id: record.guildId, permissions: record.permissions };
}

export class CommandPermissionService {
  constructor(
    private readonly ctx: PlatformContext,
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
  set(applicationId: string, guild: GuildRecord, userId: string, commandId: string, permissions: CommandPermissionRecord[]): CommandPermissionsRecord {
    this.guilds.requireGuildPermissions(guild, userId, Permission.MANAGE_GUILD, Permission.MANAGE_ROLES);
    this.target(applicationId, guild, commandId);
    this.checkTargets(guild, permissions);
    const record: CommandPermissionsRecord = { applicationId, guildId: guild.id, commandId, permissions };
    this.ctx.store.interactions.setCommandPermissions(record);
    const app = this.ctx.store.applications.get(applicationId)!;
    // No intent gates this dispatch (published); it goes to the application's bot sessions.
    this.ctx.bus.publish({ t: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE', d: permissionsJson(record), to: { userIds: [app.botUserId] } });
    return record;
  }

  /** Whether `userId` may use `command` in the channel (default_member_permissions and the overwrites). */
  mayUse(command: CommandRecord, guild: GuildRecord, channelId: string, userId: string): boolean {
    const member = this.guilds.requireMember(guild, userId);
    const store = this.ctx.store.interactions;
    const commandLevel = store.getCommandPermissions(command.applicationId, guild.id, command.id)?.permissions ?? [];
    const appLevel = store.getCommandPermissions(command.applicationId, guild.id, command.applicationId)?.permissions ?? [];
    return mayUseCommand(
      { guildId: guild.id, channelId, userId, roleIds: member.roles, guildPermissions: this.guilds.guildPermissions(guild, member) },
      { command: commandLevel, application: appLevel },
      (command.body.default_member_permissions as string | null | undefined) ?? null,
    );
  }

  /** The command must be the application's (global, or of this guild); the application id means every command. */
  private target(applicationId: string, guild: GuildRecord, commandId: string): void {
    if (commandId === applicationId) return;
    const command = /^\d{1,20}$/.test(commandId) ? this.ctx.store.interactions.getCommand(applicationId, commandId) : undefined;
    if (!command || (command.guildId !== null && command.guildId !== guild.id)) throw CommandErrors.unknownCommand();
  }

  /** Each overwrite names a role of the guild (or @everyone), a known user, or a channel of the guild (or all). */
  private checkTargets(guild: GuildRecord, permissions: CommandPermissionRecord[]): void {
    const seen = new Set<string>();
    for (const [index, overwrite] of permissions.entries()) {
      const at = ['permissions', index, 'id'];
      const key = `${overwrite.type}:${overwrite.id}`;
      if (seen.has(key)) throw fieldError(at, 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE', 'Each role, user or channel may appear once.');
      seen.add(key);
      const known =
        overwrite.type === CommandPermissionType.ROLE
          ? overwrite.id === guild.id || this.ctx.store.botGuilds.getRole(guild.id, overwrite.id) !== undefined
          : overwrite.type === CommandPermissionType.USER
            ? this.ctx.store.users.get(overwrite.id) !== undefined
            : overwrite.id === allChannelsId(guild.id) || this.guilds.channelInGuild(guild, overwrite.id) !== undefined;
      if (!known) throw fieldError(at, 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_TARGET', 'Unknown role, user or channel for this guild.');
    }
  }
}
