import type { Store } from '../types.js';
import { sqlStore } from '../sql-store.js';
import { openPostgresDatabase } from './connection.js';

/** Any constant: the advisory-lock key under which platform nodes sharing one database migrate it one at a time. */
const MIGRATION_LOCK = 0x5cc99;

/** Opens (and migrates) a PostgreSQL database: a `postgres://` / `postgresql://` connection URL (libpq syntax). */
export function openPostgresStore(connectionString: string): Store {
  const db = openPostgresDatabase(connectionString);
  try {
    db.exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      return sqlStore(db);
    } finally {
      db.exec(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } catch (error) {
    db.close();
    throw error;
  }
}
