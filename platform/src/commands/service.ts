/**
 * Application commands (PROTOCOL.md §17.1): global and guild scopes, per-type limits, the PRIMARY_ENTRY_POINT (one,
 * global, only with activities enabled; the default "Launch" one), defaults of `integration_types` and `contexts`
 * from the application's installation contexts, and the deprecated `dm_permission` mapped onto `contexts`.
 */
import type { PlatformKernel } from '../kernel.js';
import { fieldError } from '../http/errors.js';
import type { ApplicationRecord } from '../store/types.js';
import type { CommandRecord, CommandType as StoredType } from '../store/interaction-types.js';
import { checkCommand, COMMAND_LIMITS } from './rules.js';
import {
  CommandType,
  EntryPointHandler,
  InteractionContext,
  IntegrationType,
  type CommandInput,
  type CommandPatch,
} from './schemas.js';
import { publishedError } from '../http/published-errors.js';
import { isSnowflake } from '../ids/snowflake.js';

/** Application flag EMBEDDED (published): the application has activities enabled. */
export const APPLICATION_FLAG_EMBEDDED = 1 << 17;

export const CommandErrors = {
  unknownCommand: () => publishedError('UNKNOWN_COMMAND'),
  tooMany: () => publishedError('MAX_COMMANDS'),
  entryPointRemovedInBulk: () => publishedError('ENTRY_POINT_IN_BULK'),
};

export type CommandJson = ReturnType<typeof commandJson>;

export function commandJson(command: CommandRecord) {
  const body = command.body;
  return {
    id: command.id,
    application_id: command.applicationId,
    version: command.version,
    type: command.type,
    name: command.name,
    name_localizations: (body.name_localizations as Record<string, string> | null | undefined) ?? null,
    description: (body.description as string | undefined) ?? '',
    description_localizations: (body.description_localizations as Record<string, string> | null | undefined) ?? null,
    default_member_permissions: (body.default_member_permissions as string | null | undefined) ?? null,
    dm_permission: (body.contexts as number[]).includes(InteractionContext.BOT_DM),
    contexts: body.contexts as number[],
    integration_types: body.integration_types as number[],
    nsfw: (body.nsfw as boolean | undefined) ?? false,
    ...(command.guildId !== null && { guild_id: command.guildId }),
    ...(command.type === CommandType.CHAT_INPUT && { options: (body.options as unknown[] | undefined) ?? [] }),
    ...(command.type === CommandType.PRIMARY_ENTRY_POINT && { handler: body.handler as number }),
  };
}

export class CommandService {
  constructor(private readonly ctx: PlatformKernel) {}

  list(app: ApplicationRecord, guildId: string | null): CommandRecord[] {
    return this.ctx.store.interactions.listCommands(app.id, guildId);
  }

  get(app: ApplicationRecord, guildId: string | null, id: string): CommandRecord {
    const command = isSnowflake(id) ? this.ctx.store.interactions.getCommand(app.id, id) : undefined;
    if (!command || command.guildId !== guildId) throw CommandErrors.unknownCommand();
    return command;
  }

  /** POST: a command of the same name and type in the scope is overwritten (`created` false → 200, else 201). */
  create(
    app: ApplicationRecord,
    guildId: string | null,
    input: CommandInput,
  ): { command: CommandRecord; created: boolean } {
    this.checkScope(app, guildId, input, []);
    const store = this.ctx.store.interactions;
    const existing = store.findCommand(app.id, guildId, input.type, input.name);
    if (
      !existing &&
      input.type !== CommandType.PRIMARY_ENTRY_POINT &&
      store.countCommands(app.id, guildId, input.type) >= COMMAND_LIMITS[input.type]!
    ) {
      throw CommandErrors.tooMany();
    }
    // One entry point per application, whatever its name.
    if (
      input.type === CommandType.PRIMARY_ENTRY_POINT &&
      !existing &&
      store.countCommands(app.id, null, CommandType.PRIMARY_ENTRY_POINT) >= 1
    ) {
      throw CommandErrors.tooMany();
    }
    const command = this.record(app, guildId, input, existing?.id);
    store.upsertCommand(command);
    return { command, created: !existing };
  }

  edit(app: ApplicationRecord, guildId: string | null, id: string, patch: CommandPatch): CommandRecord {
    const current = this.get(app, guildId, id);
    const body = current.body;
    // A PATCH merges into the stored command; absent fields keep their value.
    const merged: CommandInput = {
      type: current.type,
      name: patch.name ?? current.name,
      name_localizations:
        patch.name_localizations !== undefined
          ? patch.name_localizations
          : (body.name_localizations as Record<string, string> | null),
      description: patch.description ?? (body.description as string | undefined),
      description_localizations:
        patch.description_localizations !== undefined
          ? patch.description_localizations
          : (body.description_localizations as Record<string, string> | null),
      options: (patch.options ?? body.options) as CommandInput['options'],
      default_member_permissions:
        patch.default_member_permissions !== undefined
          ? patch.default_member_permissions
          : (body.default_member_permissions as string | null),
      dm_permission: patch.dm_permission,
      integration_types: patch.integration_types ?? (body.integration_types as number[]),
      contexts:
        patch.contexts ??
        (patch.dm_permission !== undefined && patch.dm_permission !== null ? undefined : (body.contexts as number[])),
      nsfw: patch.nsfw ?? (body.nsfw as boolean | undefined),
      ...((patch.handler ?? body.handler) !== undefined && { handler: (patch.handler ?? body.handler) as 1 | 2 }),
    };
    this.checkScope(app, guildId, merged, []);
    const clash = this.ctx.store.interactions.findCommand(app.id, guildId, current.type, merged.name);
    if (clash && clash.id !== current.id)
      throw fieldError(['name'], 'APPLICATION_COMMAND_ALREADY_EXISTS', 'Application command names must be unique');
    const command = this.record(app, guildId, merged, current.id);
    this.ctx.store.transaction(() => {
      this.ctx.store.interactions.upsertCommand(command);
      // Renaming a command drops its permissions (published).
      if (command.name !== current.name) this.ctx.store.interactions.deleteCommandPermissions(app.id, current.id);
    });
    return command;
  }

  delete(app: ApplicationRecord, guildId: string | null, id: string): void {
    const command = this.get(app, guildId, id);
    this.ctx.store.transaction(() => {
      this.ctx.store.interactions.deleteCommand(app.id, command.id);
      // Deleting a command drops its permissions in every guild (published).
      this.ctx.store.interactions.deleteCommandPermissions(app.id, command.id);
    });
  }

  /**
   * PUT: the list replaces every command of the scope. Commands named like an existing one (same type) keep their
   * id. Leaving out an existing entry point is refused (50240), as published: it is deleted on its own.
   */
  overwrite(app: ApplicationRecord, guildId: string | null, inputs: CommandInput[]): CommandRecord[] {
    const store = this.ctx.store.interactions;
    const counts = new Map<number, number>();
    const seen = new Set<string>();
    for (const [index, input] of inputs.entries()) {
      this.checkScope(app, guildId, input, [index]);
      const key = `${input.type}:${input.name}`;
      if (seen.has(key))
        throw fieldError(
          [index, 'name'],
          'APPLICATION_COMMANDS_DUPLICATE_NAME',
          'Application command names must be unique',
        );
      seen.add(key);
      counts.set(input.type, (counts.get(input.type) ?? 0) + 1);
    }
    for (const [type, count] of counts) if (count > COMMAND_LIMITS[type]!) throw CommandErrors.tooMany();
    const existing = store.listCommands(app.id, guildId);
    if (
      existing.some((c) => c.type === CommandType.PRIMARY_ENTRY_POINT) &&
      !counts.has(CommandType.PRIMARY_ENTRY_POINT)
    ) {
      throw CommandErrors.entryPointRemovedInBulk();
    }
    const byKey = new Map(existing.map((c) => [`${c.type}:${c.name}`, c]));
    // The entry point keeps its id across a rename: there is only one.
    const entryPoint = existing.find((c) => c.type === CommandType.PRIMARY_ENTRY_POINT);
    const records = inputs.map((input) =>
      this.record(
        app,
        guildId,
        input,
        byKey.get(`${input.type}:${input.name}`)?.id ??
          (input.type === CommandType.PRIMARY_ENTRY_POINT ? entryPoint?.id : undefined),
      ),
    );
    const kept = new Map(records.map((record) => [record.id, record.name]));
    this.ctx.store.transaction(() => {
      store.deleteCommands(app.id, guildId);
      for (const record of records) store.upsertCommand(record);
      // Commands left out or renamed lose their permissions (published).
      for (const old of existing) if (kept.get(old.id) !== old.name) store.deleteCommandPermissions(app.id, old.id);
    });
    return records;
  }

  /**
   * Enabling activities creates the default entry point "Launch" (handler DISCORD_LAUNCH_ACTIVITY) unless the
   * application has one already; it can then be renamed, changed or deleted like any command.
   */
  ensureDefaultEntryPoint(app: ApplicationRecord): CommandRecord | undefined {
    const store = this.ctx.store.interactions;
    if (store.countCommands(app.id, null, CommandType.PRIMARY_ENTRY_POINT) > 0) return undefined;
    const command = this.record(
      app,
      null,
      { type: CommandType.PRIMARY_ENTRY_POINT, name: 'Launch', handler: EntryPointHandler.DISCORD_LAUNCH_ACTIVITY },
      undefined,
    );
    store.upsertCommand(command);
    return command;
  }

  private checkScope(
    app: ApplicationRecord,
    guildId: string | null,
    input: CommandInput,
    path: Array<string | number>,
  ): void {
    checkCommand(path, input);
    if (input.type !== CommandType.PRIMARY_ENTRY_POINT) return;
    if (guildId !== null)
      throw fieldError(
        [...path, 'type'],
        'APPLICATION_COMMAND_ENTRY_POINT_GLOBAL_ONLY',
        'Entry point commands can only be global.',
      );
    if ((app.flags & APPLICATION_FLAG_EMBEDDED) === 0) {
      throw fieldError(
        [...path, 'type'],
        'APPLICATION_COMMAND_ENTRY_POINT_REQUIRES_ACTIVITIES',
        'Entry point commands need activities enabled.',
      );
    }
  }

  /** The stored form: defaults filled in, the deprecated dm_permission turned into contexts. */
  private record(
    app: ApplicationRecord,
    guildId: string | null,
    input: CommandInput,
    id: string | undefined,
  ): CommandRecord {
    const installContexts = this.ctx.store.interactions.settings(app.id).installContexts;
    const integrationTypes = input.integration_types ?? installContexts;
    // Defaults (PROTOCOL.md §17.1): guilds and the bot's DM; group DMs too when the app can be user-installed.
    let contexts = input.contexts ?? (integrationTypes.includes(IntegrationType.USER_INSTALL) ? [0, 1, 2] : [0, 1]);
    if (input.contexts == null && input.dm_permission === false) contexts = [InteractionContext.GUILD];
    const permissions = input.default_member_permissions;
    return {
      id: id ?? this.ctx.ids.next(),
      applicationId: app.id,
      guildId,
      type: input.type as StoredType,
      name: input.name,
      version: this.ctx.ids.next(),
      body: {
        ...(input.description !== undefined &&
          input.type === CommandType.CHAT_INPUT && { description: input.description }),
        ...(input.name_localizations != null && { name_localizations: input.name_localizations }),
        ...(input.description_localizations != null && { description_localizations: input.description_localizations }),
        ...(input.options !== undefined && input.type === CommandType.CHAT_INPUT && { options: input.options }),
        default_member_permissions: permissions === undefined || permissions === null ? null : String(permissions),
        integration_types: integrationTypes,
        // Guild commands are used in their guild only.
        contexts: guildId !== null ? [InteractionContext.GUILD] : contexts,
        nsfw: input.nsfw ?? false,
        ...(input.type === CommandType.PRIMARY_ENTRY_POINT && { handler: input.handler }),
      },
    };
  }
}
