import type { SqlDatabase } from '../sql-database.js';
import type { MessageRecord } from '../bot-types.js';
import type {
  CommandPermissionsRecord,
  CommandRecord,
  CommandType,
  InteractionRecord,
  InteractionRepository,
  PrivateChannelRecord,
} from '../interaction-types.js';
import { json, str, type Row } from './rows.js';

/** Global commands are stored with guild_id '' so that the uniqueness constraint covers them too. */
const scope = (guildId: string | null) => guildId ?? '';

function commandFromRow(row: Row): CommandRecord {
  return {
    id: str(row.id),
    applicationId: str(row.application_id),
    guildId: row.guild_id === '' ? null : str(row.guild_id),
    type: Number(row.type) as CommandType,
    name: str(row.name),
    version: str(row.version),
    body: json(row.body),
  };
}

/** MessageRecord holds only JSON-safe values, so it round-trips through JSON as is. */
const messageFromJson = (value: unknown): MessageRecord => json(value);

export function sqliteInteractions(db: SqlDatabase): InteractionRepository {
  const listCommands = db.prepare(
    'SELECT * FROM application_commands WHERE application_id = ? AND guild_id = ? ORDER BY length(id), id',
  );
  const getCommand = db.prepare('SELECT * FROM application_commands WHERE application_id = ? AND id = ?');
  const findCommand = db.prepare(
    'SELECT * FROM application_commands WHERE application_id = ? AND guild_id = ? AND type = ? AND name = ?',
  );
  const countCommands = db.prepare(
    'SELECT count(*) AS n FROM application_commands WHERE application_id = ? AND guild_id = ? AND type = ?',
  );
  const upsertCommand = db.prepare(
    `INSERT INTO application_commands (id, application_id, guild_id, type, name, version, body)
     VALUES (@id, @applicationId, @guildId, @type, @name, @version, @body)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, version = excluded.version, body = excluded.body`,
  );
  const deleteCommand = db.prepare('DELETE FROM application_commands WHERE application_id = ? AND id = ?');
  const deleteCommands = db.prepare('DELETE FROM application_commands WHERE application_id = ? AND guild_id = ?');

  const insertInteraction = db.prepare(
    `INSERT INTO interactions (id, token, application_id, created_at, record)
     VALUES (@id, @token, @applicationId, @createdAt, @record)`,
  );
  const updateInteraction = db.prepare('UPDATE interactions SET record = @record WHERE id = @id');
  const getInteraction = db.prepare('SELECT record FROM interactions WHERE id = ?');
  const byToken = db.prepare('SELECT record FROM interactions WHERE token = ?');

  const insertEphemeral = db.prepare('INSERT INTO ephemeral_messages (id, record) VALUES (?, ?)');
  const updateEphemeral = db.prepare('UPDATE ephemeral_messages SET record = ? WHERE id = ?');
  const getEphemeral = db.prepare('SELECT record FROM ephemeral_messages WHERE id = ?');
  const deleteEphemeral = db.prepare('DELETE FROM ephemeral_messages WHERE id = ?');

  const getSettings = db.prepare('SELECT * FROM interaction_settings WHERE application_id = ?');
  const setSettings = db.prepare(
    `INSERT INTO interaction_settings (application_id, endpoint_url, install_contexts)
     VALUES (@applicationId, @endpointUrl, @installContexts)
     ON CONFLICT (application_id) DO UPDATE SET endpoint_url = excluded.endpoint_url,
       install_contexts = excluded.install_contexts`,
  );

  const listPermissions = db.prepare(
    `SELECT * FROM application_command_permissions WHERE application_id = ? AND guild_id = ?
     ORDER BY length(command_id), command_id`,
  );
  const getPermissions = db.prepare(
    'SELECT * FROM application_command_permissions WHERE application_id = ? AND guild_id = ? AND command_id = ?',
  );
  const setPermissions = db.prepare(
    `INSERT INTO application_command_permissions (application_id, guild_id, command_id, permissions)
     VALUES (@applicationId, @guildId, @commandId, @permissions)
     ON CONFLICT (application_id, guild_id, command_id) DO UPDATE SET permissions = excluded.permissions`,
  );
  const deletePermissions = db.prepare(
    'DELETE FROM application_command_permissions WHERE application_id = ? AND command_id = ?',
  );

  const getPrivateChannel = db.prepare('SELECT * FROM interaction_private_channels WHERE id = ?');
  const findPrivateChannel = db.prepare('SELECT * FROM interaction_private_channels WHERE member_key = ?');
  const insertPrivateChannel = db.prepare(
    `INSERT INTO interaction_private_channels (id, member_key, type, member_ids)
     VALUES (@id, @memberKey, @type, @memberIds) ON CONFLICT (member_key) DO NOTHING`,
  );

  const permissionsFromRow = (row: Row): CommandPermissionsRecord => ({
    applicationId: str(row.application_id),
    guildId: str(row.guild_id),
    commandId: str(row.command_id),
    permissions: json(row.permissions),
  });
  const privateChannelFromRow = (row: Row): PrivateChannelRecord => ({
    id: str(row.id),
    type: Number(row.type) as 1 | 3,
    memberIds: json(row.member_ids),
  });

  const record = (row: unknown): InteractionRecord | undefined =>
    row ? json<InteractionRecord>((row as Row).record) : undefined;

  return {
    listCommands: (applicationId, guildId) =>
      (listCommands.all(applicationId, scope(guildId)) as Row[]).map(commandFromRow),
    getCommand: (applicationId, id) => {
      const row = getCommand.get(applicationId, id) as Row | undefined;
      return row ? commandFromRow(row) : undefined;
    },
    findCommand: (applicationId, guildId, type, name) => {
      const row = findCommand.get(applicationId, scope(guildId), type, name) as Row | undefined;
      return row ? commandFromRow(row) : undefined;
    },
    countCommands: (applicationId, guildId, type) =>
      Number((countCommands.get(applicationId, scope(guildId), type) as Row).n),
    upsertCommand: (command) =>
      void upsertCommand.run({ ...command, guildId: scope(command.guildId), body: JSON.stringify(command.body) }),
    deleteCommand: (applicationId, id) => void deleteCommand.run(applicationId, id),
    deleteCommands: (applicationId, guildId) => void deleteCommands.run(applicationId, scope(guildId)),

    insertInteraction: (interaction) =>
      void insertInteraction.run({ ...interaction, record: JSON.stringify(interaction) }),
    updateInteraction: (interaction) =>
      void updateInteraction.run({ id: interaction.id, record: JSON.stringify(interaction) }),
    getInteraction: (id) => record(getInteraction.get(id)),
    findInteractionByToken: (token) => record(byToken.get(token)),

    insertEphemeral: (message) => void insertEphemeral.run(message.id, JSON.stringify(message)),
    updateEphemeral: (message) => void updateEphemeral.run(JSON.stringify(message), message.id),
    getEphemeral: (id) => {
      const row = getEphemeral.get(id) as Row | undefined;
      return row ? messageFromJson(row.record) : undefined;
    },
    deleteEphemeral: (id) => void deleteEphemeral.run(id),

    listCommandPermissions: (applicationId, guildId) =>
      (listPermissions.all(applicationId, guildId) as Row[]).map(permissionsFromRow),
    getCommandPermissions: (applicationId, guildId, commandId) => {
      const row = getPermissions.get(applicationId, guildId, commandId) as Row | undefined;
      return row ? permissionsFromRow(row) : undefined;
    },
    setCommandPermissions: (value) =>
      void setPermissions.run({ ...value, permissions: JSON.stringify(value.permissions) }),
    deleteCommandPermissions: (applicationId, commandId) => void deletePermissions.run(applicationId, commandId),

    getPrivateChannel: (id) => {
      const row = getPrivateChannel.get(id) as Row | undefined;
      return row ? privateChannelFromRow(row) : undefined;
    },
    ensurePrivateChannel: (candidate) => {
      const memberKey = candidate.memberIds.join(',');
      insertPrivateChannel.run({
        id: candidate.id,
        memberKey,
        type: candidate.type,
        memberIds: JSON.stringify(candidate.memberIds),
      });
      return privateChannelFromRow(findPrivateChannel.get(memberKey) as Row);
    },

    settings: (applicationId) => {
      const row = getSettings.get(applicationId) as Row | undefined;
      // Both installation contexts unless the developer narrowed them (new applications offer both).
      return row
        ? {
            applicationId,
            endpointUrl: row.endpoint_url === null ? null : str(row.endpoint_url),
            installContexts: json(row.install_contexts),
          }
        : { applicationId, endpointUrl: null, installContexts: [0, 1] };
    },
    setSettings: (settings) =>
      void setSettings.run({ ...settings, installContexts: JSON.stringify(settings.installContexts) }),
  };
}
