import type { Store } from '../types.js';
import { sqlStore } from '../sql-store.js';
import { openSqliteDatabase } from './connection.js';

/** Opens (and migrates) a SQLite database in WAL mode: a file path or ':memory:'. */
export function openSqliteStore(path: string): Store {
  return sqlStore(openSqliteDatabase(path));
}
