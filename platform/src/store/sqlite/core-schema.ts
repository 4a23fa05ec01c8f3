/**
 * The core area's schema migrations (migrations.ts applies them under `schema:core`). Append a new entry to
 * change the schema; never edit an applied one. (The `meta` table is the runner's own, so the first entry only
 * keeps its historical statement in an idempotent form.)
 */
export const CORE_SCHEMA_MIGRATIONS: string[] = [
  `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE applications (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    client_secret TEXT NOT NULL,
    bot_token TEXT NOT NULL UNIQUE,
    bot_user_id TEXT NOT NULL,
    owner_user_id TEXT,
    public_key_hex TEXT NOT NULL,
    private_key_pem TEXT NOT NULL,
    redirect_uris TEXT NOT NULL,
    public_client INTEGER NOT NULL,
    webhook_url TEXT,
    parent_id TEXT,
    identify_premium_approved INTEGER NOT NULL,
    provisional_accounts_enabled INTEGER NOT NULL,
    social_sdk_terms_accepted INTEGER NOT NULL,
    identity_providers TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    global_name TEXT,
    avatar TEXT,
    banner TEXT,
    email TEXT,
    verified INTEGER NOT NULL,
    premium_type INTEGER NOT NULL,
    locale TEXT NOT NULL,
    bot INTEGER NOT NULL,
    is_provisional INTEGER NOT NULL,
    provisional_application_id TEXT,
    restricted_by_user_id TEXT,
    banned_until INTEGER,
    primary_guild_id TEXT,
    password_hash TEXT,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE external_identities (
    application_id TEXT NOT NULL,
    auth_type TEXT NOT NULL,
    issuer TEXT NOT NULL,
    external_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (application_id, auth_type, issuer, external_id)
  );
  CREATE INDEX external_identities_user ON external_identities (user_id);

  CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    pair_id TEXT NOT NULL,
    application_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    origin TEXT NOT NULL,
    parent_pair_id TEXT,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX tokens_pair ON tokens (pair_id);
  CREATE INDEX tokens_parent_pair ON tokens (parent_pair_id);
  CREATE INDEX tokens_user_app ON tokens (user_id, application_id);

  CREATE TABLE authorization_codes (
    hash TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    redirect_uri TEXT,
    code_challenge TEXT,
    nonce TEXT,
    auth_time INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    issued_pair_id TEXT
  );

  CREATE TABLE device_codes (
    hash TEXT PRIMARY KEY,
    user_code TEXT NOT NULL UNIQUE,
    application_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    status TEXT NOT NULL,
    user_id TEXT,
    interval_seconds INTEGER NOT NULL,
    last_poll_at INTEGER,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE grants (
    application_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (application_id, user_id)
  );
  CREATE INDEX grants_user ON grants (user_id);

  CREATE TABLE guilds (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    icon TEXT,
    banner TEXT,
    owner_id TEXT,
    tag TEXT,
    features TEXT NOT NULL
  );

  CREATE TABLE guild_members (
    guild_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
  );
  CREATE INDEX guild_members_user ON guild_members (user_id);

  CREATE TABLE channels (
    id TEXT PRIMARY KEY,
    guild_id TEXT NOT NULL,
    name TEXT NOT NULL,
    type INTEGER NOT NULL,
    position INTEGER NOT NULL,
    parent_id TEXT
  );
  CREATE INDEX channels_guild ON channels (guild_id);

  CREATE TABLE connections (
    user_id TEXT NOT NULL,
    type TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    verified INTEGER NOT NULL,
    visibility INTEGER NOT NULL,
    publisher_application_id TEXT,
    PRIMARY KEY (user_id, type, id)
  );

  CREATE TABLE webhook_outbox (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox (status, next_attempt_at);

  CREATE TABLE signing_keys (
    kid TEXT PRIMARY KEY,
    alg TEXT NOT NULL,
    private_jwk TEXT NOT NULL,
    public_jwk TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  `,
  // Social layer (PROTOCOL.md §10): relationships (one row per user's view of one axis), DMs and game invites.
  `
  ALTER TABLE applications ADD COLUMN cover_image TEXT;

  CREATE TABLE relationships (
    user_id TEXT NOT NULL,
    other_id TEXT NOT NULL,
    axis TEXT NOT NULL,
    application_id TEXT NOT NULL,
    type INTEGER NOT NULL,
    is_spam_request INTEGER NOT NULL,
    since INTEGER NOT NULL,
    PRIMARY KEY (user_id, other_id, axis, application_id)
  );
  CREATE INDEX relationships_other ON relationships (other_id);

  CREATE TABLE spam_flags (user_id TEXT PRIMARY KEY);

  CREATE TABLE friend_request_log (user_id TEXT NOT NULL, created_at INTEGER NOT NULL);
  CREATE INDEX friend_request_log_user ON friend_request_log (user_id, created_at);

  CREATE TABLE dm_channels (
    user_low TEXT NOT NULL,
    user_high TEXT NOT NULL,
    id TEXT NOT NULL UNIQUE,
    PRIMARY KEY (user_low, user_high)
  );

  CREATE TABLE dm_messages (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    recipient_id TEXT NOT NULL,
    content TEXT NOT NULL,
    metadata TEXT NOT NULL,
    moderation_metadata TEXT NOT NULL,
    channel_type INTEGER NOT NULL,
    channel_id TEXT,
    created_at INTEGER NOT NULL,
    edited_at INTEGER,
    invite_type INTEGER,
    invite_party_owner_id TEXT,
    invite_party_id TEXT,
    invite_cover_image TEXT,
    invite_expires_at INTEGER,
    invite_valid INTEGER
  );
  CREATE INDEX dm_messages_author ON dm_messages (author_id, created_at);
  CREATE INDEX dm_messages_recipient ON dm_messages (recipient_id, created_at);
  CREATE INDEX dm_messages_invites ON dm_messages (invite_valid, invite_expires_at);
  `,
];
