/**
 * What one store call costs on each engine, through the same repositories: a keyed read, an autocommitted write,
 * and 100 writes in one transaction. The store is synchronous on both, so each figure is also how long one call holds
 * the event loop (the trade-off in platform/README.md, "Deployment"). PostgreSQL runs in a temporary local cluster
 * over its Unix socket, durability off, like the test run; a networked server adds its round trip to every call.
 *
 *   node --import tsx platform/bench/store-queries.ts [--smoke]
 */
import { openPostgresStore } from '../src/store/postgres/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/types.js';
import { startTemporaryPostgres } from '../test/support/postgres-cluster.js';
import { endClient, newClient } from '../src/store/postgres/connection.js';

const smoke = process.argv.includes('--smoke');
const ROUNDS = smoke ? 200 : 10_000;

function microsPer(count: number, fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

function measure(name: string, store: Store): void {
  for (let i = 0; i < 100; i++) store.meta.set(`warm:${i}`, 'x');
  const read = microsPer(ROUNDS, () => {
    for (let i = 0; i < ROUNDS; i++) store.meta.get(`warm:${i % 100}`);
  });
  const write = microsPer(ROUNDS, () => {
    for (let i = 0; i < ROUNDS; i++) store.meta.set(`bench:${i}`, String(i));
  });
  const batches = Math.max(1, ROUNDS / 100);
  const transaction = microsPer(batches, () => {
    for (let b = 0; b < batches; b++)
      store.transaction(() => {
        for (let i = 0; i < 100; i++) store.meta.set(`tx:${i}`, String(b));
      });
  });
  console.log(
    `${name.padEnd(28)} read ${read.toFixed(1).padStart(7)} µs   write ${write.toFixed(1).padStart(7)} µs   ` +
      `100 writes in a transaction ${transaction.toFixed(0).padStart(6)} µs`,
  );
}

console.log(
  `store-queries: ${ROUNDS} calls each${smoke ? ' (smoke)' : ''}; figures per call, ` +
    'on a machine other work may be loading',
);
const sqlite = openSqliteStore(':memory:');
measure('SQLite :memory:', sqlite);
sqlite.close();

const cluster = startTemporaryPostgres();
try {
  const admin = newClient();
  admin.connectSync(cluster.url('postgres'));
  admin.querySync('CREATE DATABASE bench');
  endClient(admin);
  const postgres = openPostgresStore(cluster.url('bench'));
  measure('PostgreSQL (Unix socket)', postgres);
  postgres.close();
} finally {
  cluster.stop();
}
