/** Tables of the lobbies area (PROTOCOL.md §10.5), applied by migrateArea under `schema:lobbies`. */
export const LOBBY_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE lobbies (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    secret TEXT,
    secret_expires_at INTEGER,
    metadata TEXT NOT NULL,
    flags INTEGER NOT NULL,
    idle_timeout_seconds INTEGER NOT NULL,
    override_webhook_url TEXT,
    linked_channel_id TEXT UNIQUE,
    idle_since INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX lobbies_secret ON lobbies (application_id, secret) WHERE secret IS NOT NULL;
  CREATE INDEX lobbies_idle ON lobbies (idle_since) WHERE idle_since IS NOT NULL AND linked_channel_id IS NULL;

  CREATE TABLE lobby_members (
    lobby_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    metadata TEXT NOT NULL,
    flags INTEGER NOT NULL,
    additional_name TEXT,
    joined_by_secret INTEGER NOT NULL,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (lobby_id, user_id)
  );
  CREATE INDEX lobby_members_user ON lobby_members (user_id);

  CREATE TABLE lobby_messages (
    id TEXT PRIMARY KEY,
    lobby_id TEXT NOT NULL,
    application_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    content TEXT NOT NULL,
    metadata TEXT NOT NULL,
    moderation_metadata TEXT NOT NULL,
    flags INTEGER NOT NULL,
    additional_name TEXT,
    author_was_member INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX lobby_messages_lobby ON lobby_messages (lobby_id, created_at);
  CREATE INDEX lobby_messages_created ON lobby_messages (created_at);

  CREATE TABLE channel_messages (
    id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    application_id TEXT NOT NULL,
    lobby_id TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX channel_messages_channel ON channel_messages (channel_id, created_at);

  CREATE TABLE lobby_invites (
    code TEXT PRIMARY KEY,
    lobby_id TEXT NOT NULL,
    application_id TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  );
  CREATE INDEX lobby_invites_lobby ON lobby_invites (lobby_id);
  `,
];
