import type { Store } from './types.js';
import { openPostgresStore } from './postgres/index.js';
import { openSqliteStore } from './sqlite/index.js';

/** True for a PostgreSQL connection URL; anything else names a SQLite file (or ':memory:'). */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

/** The platform's store: PostgreSQL for a `postgres://` URL, otherwise the embedded SQLite database. */
export function openStore(database: string): Store {
  return isPostgresUrl(database) ? openPostgresStore(database) : openSqliteStore(database);
}
