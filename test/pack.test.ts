// The shipped package: prebuildify's prebuilds + npm pack (its prepack builds dist/, absent as in a fresh clone) + npm
// install into an empty directory with a PATH that holds nothing but node and npm (so installing compiles nothing: the
// install script finds the prebuild), then load it there with PREBUILDS_ONLY=1 over both backends.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { installInEmptyProject, noCompilerEnv, packPackage, root, run, withPrebuilds } from './pack/package.js';

const work = mkdtempSync(join(tmpdir(), 'svcpp-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Ends by listing every libsvcpp.so file mapped into the process: both backends must share one.
const LOAD_SCRIPT = `
import { readFileSync } from 'node:fs';
import { Client, nativeLibraryPath } from 'svcpp';
for (const backend of ['napi', 'koffi']) {
  const client = new Client({ backend, applicationId: 5n });
  const { verifier } = client.createAuthorizationCodeVerifier();
  console.log(backend, Client.defaultCommunicationScopes, client.applicationId, verifier.length);
  await client.close();
}
console.log(nativeLibraryPath());
const maps = readFileSync('/proc/self/maps', 'utf8').split('\\n');
console.log([...new Set(maps.filter((l) => l.endsWith('/libsvcpp.so')).map((l) => l.slice(l.indexOf('/'))))].join(' '));
`;

// svcpp/server loads no native code: it works with addon loading made impossible.
const SERVER_SCRIPT = `
process.dlopen = (_module, filename) => { throw new Error('native code loaded: ' + filename); };
const { SvcppServer, WebhookReceiver } = await import('svcpp/server');
const server = new SvcppServer({ apiBase: 'https://127.0.0.1:1/api/v10', botToken: 'bot', applicationId: 7n });
console.log(typeof server.applicationId, new WebhookReceiver({ publicKey: '00'.repeat(32) }).constructor.name);
`;

it('packs, installs into an empty directory without a compiler and loads from prebuilds', () => {
  const { tarball, files } = packPackage(work);
  expect(files).toEqual(
    expect.arrayContaining([
      'dist/cjs/lib/index.js',
      'dist/cjs/lib/index.d.ts',
      'dist/cjs/package.json',
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/cjs/lib/server.js',
      'dist/esm/server.js',
      'dist/cjs/bindings/koffi/generated.js',
      // The generated contract lib/ and the koffi binding share (contract/), beside both as in the sources.
      'dist/cjs/contract/enums.js',
      'dist/cjs/contract/native-api.d.ts',
      'native/include/svcpp.h',
      // The from-source fallback: binding.gyp and everything it builds from.
      'binding.gyp',
      'scripts/install-native.cjs',
      'scripts/build-libsvcpp.sh',
      'scripts/fetch-opus.sh',
      'scripts/build-openssl.sh',
      'CMakeLists.txt',
      'cmake/dependencies.cmake',
      'cmake/glibc-floor.cmake',
      'native/glibc-floor/glibc-2.28.c',
      'bindings/napi/src/addon.cpp',
    ]),
  );
  expect(files.some((f: string) => f.startsWith('build/') || f.startsWith('build-'))).toBe(false);
  expect(files.some((f: string) => f.startsWith('native/tests/') || f.startsWith('test/'))).toBe(false);
  // The licence and the third-party notices of everything linked in (test/third-party-notices.test.ts) ship too.
  const notices = readdirSync(join(root, 'licenses')).map((name) => `licenses/${name}`);
  expect(notices.length).toBeGreaterThan(0);
  expect(files).toEqual(expect.arrayContaining(['LICENSE', 'THIRD_PARTY_NOTICES.md', ...notices]));
  // One native core per target: the addon links the C ABI library beside it instead of carrying its own copy. The
  // cross targets' prebuilds (tools/make-cross-prebuild.mjs) ship when they have been made, each as its pair.
  const PREBUILD_FILES: Record<string, string[]> = {
    'linux-x64': ['libsvcpp.so', 'svcpp.glibc.node'],
    'linux-arm64': ['libsvcpp.so', 'svcpp.glibc.node'],
    'win32-x64': ['svcpp.dll', 'svcpp.node'],
  };
  const prebuilt = files.filter((f: string) => f.startsWith('prebuilds/')).sort();
  const folders = [...new Set(prebuilt.map((f: string) => f.split('/')[1]))];
  expect(folders).toContain('linux-x64');
  for (const folder of folders) {
    expect(prebuilt.filter((f: string) => f.startsWith(`prebuilds/${folder}/`))).toEqual(
      (PREBUILD_FILES[folder] ?? ['(not a shipped target)']).map((name) => `prebuilds/${folder}/${name}`),
    );
  }

  const env = noCompilerEnv(work);
  const app = installInEmptyProject(work, 'app', 'module', tarball, env);
  // Nothing was built: node-gyp would have made node_modules/svcpp/build.
  expect(readdirSync(join(app, 'node_modules', 'svcpp')).sort()).not.toContain('build');
  writeFileSync(join(app, 'load.mjs'), LOAD_SCRIPT);
  writeFileSync(join(app, 'server.mjs'), SERVER_SCRIPT);
  const out = run('node', ['load.mjs'], app, env).trim().split('\n');
  const library = join(app, 'node_modules', 'svcpp', 'prebuilds', 'linux-x64', 'libsvcpp.so');
  expect(out).toEqual(['napi openid sdk.social_layer 5n 43', 'koffi openid sdk.social_layer 5n 43', library, library]);
  expect(run('node', ['server.mjs'], app, env).trim()).toBe('bigint WebhookReceiver');
}, 900_000); // the prebuilds (node-gyp compiles the addon) and prepack's JavaScript build, on a loaded 2-core machine

it('npm pack refuses, saying what to run, when the prebuilds for this machine are missing', () => {
  const { status, stdout, stderr } = withPrebuilds((dir) => {
    // A clone after `npm run demo` alone: no prebuilds/ (hidden for this test, under the lock every packer takes).
    const hidden = `${dir}.hidden-by-pack-test`;
    renameSync(dir, hidden);
    try {
      return spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' });
    } finally {
      renameSync(hidden, dir);
    }
  });
  expect(status).not.toBe(0);
  expect(stdout).not.toMatch(/"filename"/);
  expect(stderr).toContain('svcpp prepack: no prebuilt addon and libsvcpp.so in');
  expect(stderr).toContain('run `npm run prebuilds` first');
});

it("the install script leaves svcpp's own checkout to scripts/run.sh (npm ci there must not start node-gyp)", () => {
  const out = run(process.execPath, ['scripts/install-native.cjs'], root, { ...noCompilerEnv(work), INIT_CWD: root });
  expect(out.trim()).toBe('svcpp: source checkout, native build left to scripts/run.sh (npm run demo / npm test)');
});
