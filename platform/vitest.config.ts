import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // SVCPP_TEST_DB=postgres: the same suite on PostgreSQL, in a temporary cluster (test/support/postgres-cluster.ts).
    globalSetup: process.env.SVCPP_TEST_DB === 'postgres' ? ['test/support/postgres-cluster.ts'] : [],
    // Its teardown deletes the cluster: one database (~7.5 MB) per test platform, a few GB after the whole suite.
    teardownTimeout: 120_000,
    pool: 'forks',
    // One worker per core (vitest's default leaves one to its own process: a single worker on a 2-core machine).
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
