// The shipped package: prebuilds + npm pack + install into an empty directory, then load it there with
// PREBUILDS_ONLY=1 and a PATH that holds nothing but node (no compiler can be involved), over both backends.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'svcpp-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Ends by listing every libsvcpp.so file mapped into the process: both backends must share one.
const LOAD_SCRIPT = `
import { readFileSync } from 'node:fs';
import { Client, nativeLibraryPath } from 'svcpp';
for (const backend of ['napi', 'koffi']) {
  const client = new Client({ backend, applicationId: 5n });
  console.log(backend, Client.defaultCommunicationScopes, client.applicationId, client.createAuthorizationCodeVerifier().verifier.length);
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

it('packs, installs into an empty directory and loads from prebuilds without a compiler', () => {
  const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
    execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  run(process.execPath, ['tools/make-prebuilds.mjs'], root);
  run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], root);
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], root))[0];
  const files = packed.files.map((f: { path: string }) => f.path);
  expect(files).toEqual(expect.arrayContaining([
    'dist/lib/index.js', 'dist/bindings/koffi/generated.js', 'native/include/svcpp.h',
    'prebuilds/linux-x64/svcpp.glibc.node', 'prebuilds/linux-x64/libsvcpp.so',
  ]));
  expect(files.some((f: string) => f.startsWith('build/'))).toBe(false);
  // The licence and the third-party notices of everything linked in (test/third-party-notices.test.ts) ship too.
  const notices = readdirSync(join(root, 'licenses')).map((name) => `licenses/${name}`);
  expect(notices.length).toBeGreaterThan(0);
  expect(files).toEqual(expect.arrayContaining(['LICENSE', 'THIRD_PARTY_NOTICES.md', 'dist/lib/server.js', 'dist/lib/server.d.ts', ...notices]));
  // One native core: the addon links the libsvcpp.so beside it instead of carrying its own copy.
  expect(files.filter((f: string) => f.startsWith('prebuilds/')).sort()).toEqual([
    'prebuilds/linux-x64/libsvcpp.so', 'prebuilds/linux-x64/svcpp.glibc.node',
  ]);

  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], app);
  writeFileSync(join(app, 'load.mjs'), LOAD_SCRIPT);
  writeFileSync(join(app, 'server.mjs'), SERVER_SCRIPT);

  const bin = join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  expect(readdirSync(bin)).toEqual(['node']);
  const env = { PATH: bin, PREBUILDS_ONLY: '1', HOME: work };
  const out = run(join(bin, 'node'), ['load.mjs'], app, env).trim().split('\n');
  const library = join(app, 'node_modules', 'svcpp', 'prebuilds', 'linux-x64', 'libsvcpp.so');
  expect(out).toEqual([
    'napi openid sdk.social_layer 5n 43',
    'koffi openid sdk.social_layer 5n 43',
    library,
    library,
  ]);
  expect(run(join(bin, 'node'), ['server.mjs'], app, env).trim()).toBe('bigint WebhookReceiver');
});
