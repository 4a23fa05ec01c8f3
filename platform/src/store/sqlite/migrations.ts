import type Database from 'better-sqlite3';

/**
 * The one schema-migration system: each feature area owns an ordered list of SQL migrations, recorded in the
 * `meta` table under `schema:<area>`. Areas migrate independently of each other, so features developed in parallel
 * never compete for the same version number. Append to an area's list; never edit an applied entry.
 */
export function migrateArea(db: Database.Database, area: string, migrations: readonly string[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const key = `schema:${area}`;
  const read = db.prepare('SELECT value FROM meta WHERE key = ?');
  const write = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const row = read.get(key) as { value: string } | undefined;
  for (let version = row ? Number(row.value) : legacyVersion(db, area); version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      write.run(key, String(version + 1));
    })();
  }
}

/**
 * Databases written before the core area moved into this system recorded its version in `PRAGMA user_version`;
 * that count carries over once (the row written by the next migration then wins).
 */
function legacyVersion(db: Database.Database, area: string): number {
  if (area !== 'core') return 0;
  return db.pragma('user_version', { simple: true }) as number;
}
