import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Native modules crashed vitest's threads pool; each file runs in its own child process instead.
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    // The pack test builds, packs and installs the package; the lifecycle tests spawn Node processes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
