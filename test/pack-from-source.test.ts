// The from-source fallback: with no prebuild for the machine, the package's install script (node-gyp-build) builds
// the addon through binding.gyp (node-gyp compiles the addon, CMake the core and libsvcpp.so) inside the installed
// package, and the package then works from that build. Slow: it compiles the whole core (minutes on 2 cores; ccache
// makes a repeat faster). scripts/run.sh runs it as its own stage.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { installInEmptyProject, noCompilerEnv, packPackage, root, run } from './pack/package.js';
import { aboveFloor } from './support/glibc-floor.js';

// Under the checkout (ignored build-*/ directory) rather than /tmp, so a ccache configured with base_dir over the
// checkout can reuse objects between runs of this test.
mkdirSync(join(root, 'build-prebuild'), { recursive: true });
const work = mkdtempSync(join(root, 'build-prebuild', 'from-source-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LOAD_SCRIPT = `
const { Client, nativeLibraryPath } = require('svcpp');
(async () => {
  for (const backend of ['napi', 'koffi']) {
    const client = new Client({ backend, applicationId: 9n });
    console.log(backend, client.applicationId, client.createAuthorizationCodeVerifier().verifier.length);
    await client.close();
  }
  console.log(nativeLibraryPath());
})();
`;

it('builds from source with binding.gyp when no prebuild matches, and loads that build', () => {
  const { tarball } = packPackage(work);
  const app = installInEmptyProject(work, 'fallback', 'commonjs', tarball, noCompilerEnv(work));
  const svcpp = join(app, 'node_modules', 'svcpp');
  rmSync(join(svcpp, 'prebuilds'), { recursive: true });

  // The install script again, as a machine without a matching prebuild runs it: now it must compile.
  const started = Date.now();
  const env = { ...process.env, CMAKE_BUILD_PARALLEL_LEVEL: '2', JOBS: '2' };
  run('npm', ['rebuild', 'svcpp', '--foreground-scripts'], app, env);
  console.log(`from-source build: ${Math.round((Date.now() - started) / 1000)} s`);
  const built = join(svcpp, 'build', 'Release');
  expect(
    readdirSync(built)
      .filter((name) => /\.(node|so)$/.test(name))
      .sort(),
  ).toEqual(['libsvcpp.so', 'svcpp.node']);
  // The fallback build has the glibc floor too (binding.gyp and CMake apply it alike).
  expect(aboveFloor(join(built, 'svcpp.node'))).toEqual([]);
  expect(aboveFloor(join(built, 'libsvcpp.so'))).toEqual([]);

  writeFileSync(join(app, 'load.js'), LOAD_SCRIPT);
  const { PREBUILDS_ONLY: _ignored, ...withBuild } = noCompilerEnv(work);
  expect(run('node', ['load.js'], app, withBuild).trim().split('\n')).toEqual([
    'napi 9n 43',
    'koffi 9n 43',
    join(built, 'libsvcpp.so'),
  ]);
}, 1_800_000);
