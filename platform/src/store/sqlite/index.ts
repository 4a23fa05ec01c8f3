import Database from 'better-sqlite3';
import type { Store } from '../types.js';
import { sqliteApplications } from './applications.js';
import { sqliteAuthorizationCodes, sqliteDeviceCodes } from './codes.js';
import { sqliteConnections } from './connections.js';
import { sqliteGrants } from './grants.js';
import { sqliteGuilds } from './guilds.js';
import { sqliteIdentities } from './identities.js';
import { sqliteMeta, sqliteSigningKeys } from './keys-and-meta.js';
import { OUTBOX_EVENT_ID_MIGRATIONS, OUTBOX_TARGET_MIGRATIONS, sqliteOutbox } from './outbox.js';
import { migrateArea } from './migrations.js';
import { LOBBY_MIGRATIONS } from './lobby-schema.js';
import { BOT_API_MIGRATIONS } from './bot-schema.js';
import { PREMIUM_MIGRATIONS } from './premium-schema.js';
import { sqlitePremium } from './premium.js';
import { sqliteBotGuilds } from './bot-guilds.js';
import { INTERACTION_MIGRATIONS } from './interaction-schema.js';
import { sqliteInteractions } from './interactions.js';
import { sqliteLobbies } from './lobbies.js';
import { CORE_MIGRATIONS } from './schema.js';
import { sqliteDirectMessages } from './direct-messages.js';
import { sqliteRelationships } from './relationships.js';
import { sqliteTokens } from './tokens.js';
import { sqliteUsers } from './users.js';

/** Opens (and migrates) a SQLite database in WAL mode: a file path or ':memory:'. */
export function openSqliteStore(path: string): Store {
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  // FULL: a committed webhook outbox entry survives a power cut, not only a process exit.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrateArea(db, 'core', CORE_MIGRATIONS);
  migrateArea(db, 'webhook-targets', OUTBOX_TARGET_MIGRATIONS);
  migrateArea(db, 'webhook-event-ids', OUTBOX_EVENT_ID_MIGRATIONS);
  migrateArea(db, 'lobbies', LOBBY_MIGRATIONS);
  migrateArea(db, 'bot-api', BOT_API_MIGRATIONS);
  migrateArea(db, 'interactions', INTERACTION_MIGRATIONS);
  migrateArea(db, 'premium', PREMIUM_MIGRATIONS);
  return {
    applications: sqliteApplications(db),
    lobbies: sqliteLobbies(db),
    relationships: sqliteRelationships(db),
    directMessages: sqliteDirectMessages(db),
    users: sqliteUsers(db),
    identities: sqliteIdentities(db),
    tokens: sqliteTokens(db),
    authorizationCodes: sqliteAuthorizationCodes(db),
    deviceCodes: sqliteDeviceCodes(db),
    grants: sqliteGrants(db),
    guilds: sqliteGuilds(db),
    botGuilds: sqliteBotGuilds(db),
    interactions: sqliteInteractions(db),
    connections: sqliteConnections(db),
    premium: sqlitePremium(db),
    outbox: sqliteOutbox(db),
    signingKeys: sqliteSigningKeys(db),
    meta: sqliteMeta(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
}
