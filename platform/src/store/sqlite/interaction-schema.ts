/** Tables of commands and interactions (PROTOCOL.md §17), applied by migrateArea under `schema:interactions`. */
export const INTERACTION_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE application_commands (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    type INTEGER NOT NULL,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (application_id, guild_id, type, name)
  );

  CREATE TABLE interactions (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    application_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    record TEXT NOT NULL
  );

  CREATE TABLE ephemeral_messages (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL
  );

  CREATE TABLE interaction_settings (
    application_id TEXT PRIMARY KEY,
    endpoint_url TEXT,
    install_contexts TEXT NOT NULL
  );
  `,
  // Command permissions per guild (PROTOCOL.md §17.9) and the private channels (DMs, group DMs) interactions are
  // triggered in (§17.2). member_key is the sorted member ids joined with ',': one channel per set of members.
  `
  CREATE TABLE application_command_permissions (
    application_id TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    command_id TEXT NOT NULL,
    permissions TEXT NOT NULL,
    PRIMARY KEY (application_id, guild_id, command_id)
  );

  CREATE TABLE interaction_private_channels (
    id TEXT PRIMARY KEY,
    member_key TEXT NOT NULL UNIQUE,
    type INTEGER NOT NULL,
    member_ids TEXT NOT NULL
  );
  `,
];
