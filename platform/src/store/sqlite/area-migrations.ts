import type Database from 'better-sqlite3';

/**
 * Schema migrations of one feature area, recorded in the `meta` table under `schema:<area>`. Areas migrate
 * independently of the core list in schema.ts (and of each other), so features developed in parallel never
 * compete for the same version number. Append to an area's list; never edit an applied entry.
 */
export function migrateArea(db: Database.Database, area: string, migrations: readonly string[]): void {
  const key = `schema:${area}`;
  const read = db.prepare('SELECT value FROM meta WHERE key = ?');
  const write = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const row = read.get(key) as { value: string } | undefined;
  for (let version = row ? Number(row.value) : 0; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      write.run(key, String(version + 1));
    })();
  }
}
