/** Records of commands and interactions (PROTOCOL.md §17): commands, interaction tokens, ephemeral replies. */
import type { MessageRecord } from './bot-types.js';

/** Published command types. */
export type CommandType = 1 | 2 | 3 | 4;

export interface CommandRecord {
  id: string;
  applicationId: string;
  /** null for a global command. */
  guildId: string | null;
  type: CommandType;
  name: string;
  /** Changes at every update (a snowflake, as published). */
  version: string;
  /** The remaining published fields as the platform normalised them (description, options, contexts, …). */
  body: Record<string, unknown>;
}

/** One interaction and its token's life (PROTOCOL.md §17.3). */
export interface InteractionRecord {
  id: string;
  applicationId: string;
  token: string;
  /** 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 APPLICATION_COMMAND_AUTOCOMPLETE, 5 MODAL_SUBMIT. */
  type: number;
  userId: string;
  guildId: string | null;
  channelId: string;
  /** Interaction context: 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL. */
  context: number;
  /** Installation contexts that authorised it ("0" guild, "1" user) → owner id. */
  authorizingOwners: Record<string, string>;
  /** Responses are forced ephemeral (USE_EXTERNAL_APPS off and the app not installed in the guild). */
  forceEphemeral: boolean;
  createdAt: number;
  /** The callback type the application answered with; null until it answered. */
  responseType: number | null;
  originalMessageId: string | null;
  followups: number;
  /** The modal the application opened (callback 9), kept so a submission can be checked against it. */
  modal: Record<string, unknown> | null;
  /** For a component interaction: the message the component is on. */
  messageId: string | null;
  /** For an autocomplete interaction: the focused option's type (the choices' value type), and the choices sent. */
  autocompleteOptionType?: number;
  autocompleteChoices?: unknown[];
}

export interface InteractionSettingsRecord {
  applicationId: string;
  /** HTTP interactions endpoint; null → INTERACTION_CREATE over the gateway. */
  endpointUrl: string | null;
  /**
   * The application's installation contexts (0 GUILD_INSTALL, 1 USER_INSTALL): the default of a command's
   * integration_types.
   */
  installContexts: number[];
}

/** One overwrite of a command's permissions (published): ROLE 1, USER 2, CHANNEL 3. */
export interface CommandPermissionRecord {
  id: string;
  type: 1 | 2 | 3;
  permission: boolean;
}

/**
 * The overwrites of one command in one guild (published "guild application command permissions"). `commandId` equal
 * to the application id holds the application-wide overwrites.
 */
export interface CommandPermissionsRecord {
  applicationId: string;
  guildId: string;
  commandId: string;
  permissions: CommandPermissionRecord[];
}

/** A DM (type 1) or group DM (type 3) an interaction was triggered in; `memberIds` sorted, the invoker included. */
export interface PrivateChannelRecord {
  id: string;
  type: 1 | 3;
  memberIds: string[];
}

export interface InteractionRepository {
  listCommands(applicationId: string, guildId: string | null): CommandRecord[];
  getCommand(applicationId: string, id: string): CommandRecord | undefined;
  findCommand(
    applicationId: string,
    guildId: string | null,
    type: CommandType,
    name: string,
  ): CommandRecord | undefined;
  countCommands(applicationId: string, guildId: string | null, type: CommandType): number;
  upsertCommand(command: CommandRecord): void;
  deleteCommand(applicationId: string, id: string): void;
  /** Removes every command of the scope (bulk overwrite runs it in a transaction before inserting). */
  deleteCommands(applicationId: string, guildId: string | null): void;

  insertInteraction(interaction: InteractionRecord): void;
  updateInteraction(interaction: InteractionRecord): void;
  getInteraction(id: string): InteractionRecord | undefined;
  findInteractionByToken(token: string): InteractionRecord | undefined;

  /** Ephemeral interaction messages: seen only through the interaction's webhook routes, never in the channel. */
  insertEphemeral(message: MessageRecord): void;
  updateEphemeral(message: MessageRecord): void;
  getEphemeral(id: string): MessageRecord | undefined;
  deleteEphemeral(id: string): void;

  listCommandPermissions(applicationId: string, guildId: string): CommandPermissionsRecord[];
  getCommandPermissions(
    applicationId: string,
    guildId: string,
    commandId: string,
  ): CommandPermissionsRecord | undefined;
  setCommandPermissions(record: CommandPermissionsRecord): void;
  /** Drops a deleted command's overwrites in every guild. */
  deleteCommandPermissions(applicationId: string, commandId: string): void;

  getPrivateChannel(id: string): PrivateChannelRecord | undefined;
  /** The channel of exactly these members (sorted), created as `candidate` on first use. */
  ensurePrivateChannel(candidate: PrivateChannelRecord): PrivateChannelRecord;

  settings(applicationId: string): InteractionSettingsRecord;
  setSettings(settings: InteractionSettingsRecord): void;
}
