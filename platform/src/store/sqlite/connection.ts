import Database from 'better-sqlite3';
import type { SqlDatabase } from '../sql-database.js';

/** Opens a SQLite database (file path or ':memory:') in WAL mode as the repositories' SqlDatabase. */
export function openSqliteDatabase(path: string): SqlDatabase & { readonly native: Database.Database } {
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  // FULL: a committed webhook outbox entry survives a power cut, not only a process exit.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  return {
    dialect: 'sqlite',
    native: db,
    prepare: (sql) => db.prepare(sql),
    exec: (sql) => void db.exec(sql),
    // IMMEDIATE: the write lock is taken at BEGIN. A deferred transaction that read first could not upgrade once
    // another process (a second platform on the same file) had committed in between — SQLITE_BUSY at once, no wait.
    transaction: <T>(fn: () => T): T => db.transaction(fn).immediate(),
    close: () => db.close(),
  };
}
