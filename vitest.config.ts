import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Native modules crashed vitest's threads pool; each file runs in its own child process instead.
    pool: 'forks',
    // vitest's default leaves a core to its own process (one worker on a 2-core machine: every file in turn). The files
    // wait on sockets, platforms and child processes more than they compute: one worker per core.
    maxWorkers: availableParallelism(),
    include: ['test/**/*.test.ts'],
    // The pack test builds, packs and installs the package; the lifecycle tests spawn Node processes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
