import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The files that make the prebuilds (tools/make-prebuilds.mjs through test/pack/package.ts): it builds libsvcpp.so in
// the checkout's CMake tree, build/, which relinks build/Release/libsvcpp.so when that tree is out of date — under
// every other file, which loads it. So these run first, as a group of their own; the rest start when they are done.
const packaging = [
  'test/pack.test.ts',
  'test/pack-projects.test.ts',
  'test/pack-from-source.test.ts',
  'test/glibc-floor.test.ts',
  'test/binary-size.test.ts',
  'test/docs-examples.test.ts',
  // The cross targets' scenarios pack the package too (with every target's prebuild).
  'test/targets/*.test.ts',
];

export default defineConfig({
  test: {
    // Native modules crashed vitest's threads pool; each file runs in its own child process instead.
    pool: 'forks',
    // vitest's default leaves a core to its own process (one worker on a 2-core machine: every file in turn). The files
    // wait on sockets, platforms and child processes more than they compute: one worker per core.
    maxWorkers: availableParallelism(),
    // The pack test builds, packs and installs the package; the lifecycle tests spawn Node processes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The koffi backend's binding is required lazily (lib/loader.ts); this lets that require read the .ts sources.
    setupFiles: ['test/support/require-typescript.ts'],
    projects: [
      { extends: true, test: { name: 'packaging', include: packaging, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'sdk', include: ['test/**/*.test.ts'], exclude: packaging, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
