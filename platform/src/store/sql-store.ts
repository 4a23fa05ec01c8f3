import { DIALECT_FUNCTION_MIGRATIONS } from './dialect-functions.js';
import type { SqlDatabase } from './sql-database.js';
import type { Store } from './types.js';
import { ACTIVITY_MIGRATIONS } from './sqlite/activity-schema.js';
import { sqliteActivities } from './sqlite/activities.js';
import { APPLICATION_PROFILE_MIGRATIONS } from './sqlite/application-profile-schema.js';
import { sqliteApplications } from './sqlite/applications.js';
import { sqliteAuthorizationCodes, sqliteDeviceCodes } from './sqlite/codes.js';
import { sqliteConnections } from './sqlite/connections.js';
import { sqliteGrants } from './sqlite/grants.js';
import { sqliteGuilds } from './sqlite/guilds.js';
import { sqliteIdentities } from './sqlite/identities.js';
import { sqliteMeta, sqliteSigningKeys } from './sqlite/keys-and-meta.js';
import { sqliteOutbox } from './sqlite/outbox.js';
import { OUTBOX_EVENT_ID_MIGRATIONS, OUTBOX_TARGET_MIGRATIONS } from './sqlite/webhook-outbox-schema.js';
import { migrateArea } from './sqlite/migrations.js';
import { LOBBY_MIGRATIONS } from './sqlite/lobby-schema.js';
import { BOT_API_MIGRATIONS } from './sqlite/bot-schema.js';
import { INTERACTION_MIGRATIONS } from './sqlite/interaction-schema.js';
import { sqliteInteractions } from './sqlite/interactions.js';
import { PREMIUM_MIGRATIONS } from './sqlite/premium-schema.js';
import { sqlitePremium } from './sqlite/premium.js';
import { sqliteBotGuilds } from './sqlite/bot-guilds.js';
import { sqliteReactions } from './sqlite/reactions.js';
import { sqliteLobbies } from './sqlite/lobbies.js';
import { CORE_SCHEMA_MIGRATIONS } from './sqlite/core-schema.js';
import { sqliteDirectMessages } from './sqlite/direct-messages.js';
import { sqliteRelationships } from './sqlite/relationships.js';
import { sqliteTokens } from './sqlite/tokens.js';
import { sqliteUsers } from './sqlite/users.js';

/**
 * Migrates a SQL database and builds the Store over it. The repositories in `store/sqlite/` carry one SQL text per
 * query in the dialect SQLite and PostgreSQL share, so both engines run the same code (`sql-database.ts`).
 */
export function sqlStore(db: SqlDatabase): Store {
  migrateArea(db, 'dialect-functions', DIALECT_FUNCTION_MIGRATIONS);
  migrateArea(db, 'core', CORE_SCHEMA_MIGRATIONS);
  migrateArea(db, 'webhook-targets', OUTBOX_TARGET_MIGRATIONS);
  migrateArea(db, 'webhook-event-ids', OUTBOX_EVENT_ID_MIGRATIONS);
  migrateArea(db, 'lobbies', LOBBY_MIGRATIONS);
  migrateArea(db, 'bot-api', BOT_API_MIGRATIONS);
  migrateArea(db, 'premium', PREMIUM_MIGRATIONS);
  migrateArea(db, 'interactions', INTERACTION_MIGRATIONS);
  migrateArea(db, 'activities', ACTIVITY_MIGRATIONS);
  migrateArea(db, 'application-profile', APPLICATION_PROFILE_MIGRATIONS);
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
    reactions: sqliteReactions(db),
    connections: sqliteConnections(db),
    premium: sqlitePremium(db),
    interactions: sqliteInteractions(db),
    activities: sqliteActivities(db),
    outbox: sqliteOutbox(db),
    signingKeys: sqliteSigningKeys(db),
    meta: sqliteMeta(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn),
    close: () => db.close(),
  };
}
