import type { SqlDatabase } from '../sql-database.js';
import { postgresDdl } from '../postgres/ddl.js';

/**
 * One migration step. A plain string is written in SQLite's DDL and carried to PostgreSQL by `postgresDdl`
 * (column types and collation only); a step whose SQL differs beyond that gives both texts.
 */
export type Migration = string | { readonly sqlite: string; readonly postgres: string };

/**
 * The one schema-migration system: each feature area owns an ordered list of SQL migrations, recorded in the
 * `meta` table under `schema:<area>`. Areas migrate independently of each other, so features developed in parallel
 * never compete for the same version number. Append to an area's list; never edit an applied entry.
 *
 * Each step runs in its own transaction and re-reads the version inside it. On PostgreSQL, several platform nodes
 * may start at once: `openPostgresStore` holds an advisory lock around all areas, so the second node waits and then
 * finds every step applied.
 */
export function migrateArea(db: SqlDatabase, area: string, migrations: readonly Migration[]): void {
  db.exec(db.dialect === 'postgres' ? postgresDdl(META_TABLE) : META_TABLE);
  const key = `schema:${area}`;
  const read = db.prepare('SELECT value FROM meta WHERE key = ?');
  const write = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const currentVersion = (): number => {
    const row = read.get(key) as { value: string } | undefined;
    return row ? Number(row.value) : legacyVersion(db, area);
  };
  for (let version = currentVersion(); version < migrations.length; version++) {
    db.transaction(() => {
      if (currentVersion() > version) return;
      db.exec(migrationText(db, migrations[version]!));
      write.run(key, String(version + 1));
    });
  }
}

const META_TABLE = 'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)';

function migrationText(db: SqlDatabase, migration: Migration): string {
  if (typeof migration !== 'string') return migration[db.dialect];
  return db.dialect === 'postgres' ? postgresDdl(migration) : migration;
}

/**
 * Databases written before the core area moved into this system recorded its version in `PRAGMA user_version`;
 * that count carries over once (the row written by the next migration then wins). PostgreSQL databases never had it.
 */
function legacyVersion(db: SqlDatabase, area: string): number {
  if (area !== 'core' || db.dialect !== 'sqlite') return 0;
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}
