/**
 * The database a test platform runs on. By default what the test asked for (SQLite: ':memory:' or a file). In the
 * PostgreSQL run (SVCPP_TEST_DB=postgres) each in-memory request becomes a fresh database of the test cluster, and
 * each file path the same database every time it is asked for (so restart tests find their data again) — tests stay
 * independent and runnable alone.
 */
import { createHash, randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { endClient, newClient } from '../../src/store/postgres/connection.js';
import { postgresUrl } from './postgres-cluster.js';

export const onPostgres = process.env.SVCPP_TEST_DB === 'postgres';

const created = new Set<string>();

export function testDatabase(database: string = ':memory:'): string {
  if (!onPostgres) return database;
  const name =
    database === ':memory:'
      ? `mem_${randomBytes(8).toString('hex')}`
      : `file_${createHash('sha256').update(database).digest('hex').slice(0, 24)}`;
  const url = (database: string) => postgresUrl(inject('postgresSocketDir'), database);
  if (!created.has(name)) {
    const admin = newClient();
    admin.connectSync(url('postgres'));
    try {
      const exists = admin.querySync('SELECT 1 FROM pg_database WHERE datname = $1', [name]).length > 0;
      if (!exists) admin.querySync(`CREATE DATABASE ${name}`);
    } finally {
      endClient(admin);
    }
    created.add(name);
  }
  return url(name);
}
