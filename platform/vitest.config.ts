import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // SVCPP_TEST_DB=postgres: the same suite on PostgreSQL, in a temporary cluster (test/support/postgres-cluster.ts).
    globalSetup: process.env.SVCPP_TEST_DB === 'postgres' ? ['test/support/postgres-cluster.ts'] : [],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
