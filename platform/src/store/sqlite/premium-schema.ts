/** Tables of the premium-apps area (PROTOCOL.md "Premium apps"), applied by migrateArea under `schema:premium`. */
export const PREMIUM_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE skus (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    type INTEGER NOT NULL,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    flags INTEGER NOT NULL,
    price_cents INTEGER NOT NULL,
    group_sku_id TEXT,
    created_at INTEGER NOT NULL,
    UNIQUE (application_id, slug)
  );

  CREATE TABLE entitlements (
    id TEXT PRIMARY KEY,
    sku_id TEXT NOT NULL,
    application_id TEXT NOT NULL,
    user_id TEXT,
    guild_id TEXT,
    type INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    starts_at INTEGER,
    ends_at INTEGER,
    consumed INTEGER,
    subscription_id TEXT,
    test INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX entitlements_app ON entitlements (application_id, length(id), id);
  CREATE INDEX entitlements_user ON entitlements (application_id, user_id);
  CREATE INDEX entitlements_guild ON entitlements (application_id, guild_id) WHERE guild_id IS NOT NULL;

  CREATE TABLE subscriptions (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    sku_ids TEXT NOT NULL,
    entitlement_ids TEXT NOT NULL,
    renewal_sku_ids TEXT,
    current_period_start INTEGER NOT NULL,
    current_period_end INTEGER NOT NULL,
    status INTEGER NOT NULL,
    canceled_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX subscriptions_user ON subscriptions (user_id);
  `,
];
