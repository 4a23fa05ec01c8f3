/** Tables of the bot API area (PROTOCOL.md §14), applied by migrateArea under `schema:bot-api`. */
export const BOT_API_MIGRATIONS: readonly string[] = [
  `
  ALTER TABLE applications ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;

  CREATE TABLE roles (
    id TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    name TEXT NOT NULL,
    permissions TEXT NOT NULL,
    position INTEGER NOT NULL,
    colors TEXT NOT NULL,
    hoist INTEGER NOT NULL,
    mentionable INTEGER NOT NULL,
    icon TEXT,
    unicode_emoji TEXT,
    flags INTEGER NOT NULL,
    PRIMARY KEY (guild_id, id)
  );

  CREATE TABLE member_profiles (
    guild_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    nick TEXT,
    avatar TEXT,
    banner TEXT,
    bio TEXT,
    roles TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    flags INTEGER NOT NULL,
    communication_disabled_until INTEGER,
    PRIMARY KEY (guild_id, user_id)
  );

  CREATE TABLE channel_settings (
    channel_id TEXT PRIMARY KEY,
    topic TEXT,
    nsfw INTEGER NOT NULL,
    rate_limit_per_user INTEGER NOT NULL,
    overwrites TEXT NOT NULL
  );

  CREATE TABLE guild_messages (
    id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    type INTEGER NOT NULL,
    content TEXT NOT NULL,
    flags INTEGER NOT NULL,
    nonce TEXT,
    body TEXT NOT NULL,
    pinned_at INTEGER,
    created_at INTEGER NOT NULL,
    edited_at INTEGER
  );
  CREATE INDEX guild_messages_channel ON guild_messages (channel_id, length(id), id);
  CREATE INDEX guild_messages_nonce ON guild_messages (channel_id, author_id, nonce) WHERE nonce IS NOT NULL;
  CREATE INDEX guild_messages_pins ON guild_messages (channel_id, pinned_at) WHERE pinned_at IS NOT NULL;

  CREATE TABLE message_attachments (
    id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL,
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    data BLOB NOT NULL
  );

  CREATE TABLE guild_invites (
    code TEXT PRIMARY KEY,
    guild_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    inviter_id TEXT NOT NULL,
    max_age INTEGER NOT NULL,
    max_uses INTEGER NOT NULL,
    uses INTEGER NOT NULL,
    temporary INTEGER NOT NULL,
    role_ids TEXT NOT NULL,
    job TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX guild_invites_channel ON guild_invites (channel_id);

  CREATE TABLE invite_target_users (
    code TEXT NOT NULL,
    user_id TEXT NOT NULL,
    PRIMARY KEY (code, user_id)
  );

  CREATE TABLE audit_log (
    id TEXT PRIMARY KEY,
    guild_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    target_id TEXT,
    action_type INTEGER NOT NULL,
    changes TEXT,
    options TEXT,
    reason TEXT
  );
  CREATE INDEX audit_log_guild ON audit_log (guild_id, length(id), id);
  `,
  `
  CREATE TABLE application_emojis (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    name TEXT NOT NULL,
    image TEXT NOT NULL,
    user_id TEXT NOT NULL,
    animated INTEGER NOT NULL,
    UNIQUE (application_id, name)
  );
  `,
  // Voice channel settings editable over HTTP (Modify Channel); a channel without a row has the published defaults.
  `
  ALTER TABLE channel_settings ADD COLUMN bitrate INTEGER NOT NULL DEFAULT 64000;
  ALTER TABLE channel_settings ADD COLUMN user_limit INTEGER NOT NULL DEFAULT 0;
  `,
  // AutoMod rules: the published rule object is kept whole as JSON (the routes validate it; only guild and id are
  // keys).
  `
  CREATE TABLE auto_moderation_rules (
    id TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    rule TEXT NOT NULL,
    PRIMARY KEY (guild_id, id)
  );
  `,
  // Message reactions (PROTOCOL.md §14.4 "Reactions"): one row per user, emoji and type (normal 0, burst 1); the
  // emoji's key is a custom emoji's id or the unicode emoji itself.
  `
  CREATE TABLE message_reactions (
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    emoji_key TEXT NOT NULL,
    emoji_id TEXT,
    emoji_name TEXT NOT NULL,
    animated INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    type INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (message_id, emoji_key, user_id, type)
  );
  CREATE INDEX message_reactions_channel ON message_reactions (channel_id);
  `,
];
