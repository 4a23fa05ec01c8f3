// The packed package in empty ESM and CommonJS projects, as a user gets it: `npm install <tarball>` with no compiler on
// PATH, TypeScript strict with `module: nodenext` type-checking the README's provisional-player snippet against the
// shipped declarations (the `import` condition's for ESM, the `require` condition's for CommonJS), then the compiled
// snippet run with node alone against the real platform (TLS, loopback) while a full account watches its effects.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { minimatch } from 'minimatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelationshipType } from '../lib/index.js';
import { provisionalToken, startE2EPlatform, type E2EPlatform } from './e2e/harness.js';
import { fullPlayer } from './e2e/social-support.js';
import { closeAll, waitForEvent, type Player } from './e2e/player.js';
import { installInEmptyProject, noCompilerEnv, packPackage, root, run, type PackedPackage } from './pack/package.js';
import { readmeSnippets } from './readme/snippets.js';
import { docRecipe } from './support/doc-recipes.js';

const work = mkdtempSync(join(tmpdir(), 'svcpp-pack-projects-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let packed: PackedPackage;
let e2e: E2EPlatform;
beforeAll(async () => {
  packed = packPackage(work);
  e2e = await startE2EPlatform();
}, 900_000);
afterAll(() => e2e?.close());

/** The snippet with its free variables as constants; CommonJS has no top-level await, so its body goes in main(). */
function program(type: 'module' | 'commonjs', frees: Record<string, string>): string {
  const code = readmeSnippets(join(root, 'README.md')).get('provisional-player')!;
  const lines = code.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  const prelude = Object.entries(frees).map(([name, value]) => `const ${name} = ${value};`);
  if (type === 'module') return [...imports, ...prelude, ...body].join('\n');
  return [
    ...imports,
    'async function main(): Promise<void> {',
    ...prelude,
    ...body,
    '}',
    'main().catch((error: unknown) => { console.error(error); process.exitCode = 1; });',
  ].join('\n');
}

function typeScriptProject(app: string, source: string): void {
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2022',
          outDir: 'out',
          rootDir: 'src',
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
        },
        include: ['src'],
      },
      null,
      2,
    ),
  );
  run('mkdir', ['-p', join(app, 'src')], app);
  writeFileSync(join(app, 'src', 'main.ts'), source);
}

function runNode(
  file: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [file], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe.each(['module', 'commonjs'] as const)('the packed package in an empty "%s" TypeScript project', (type) => {
  it('installs without a compiler, type-checks the README snippet (strict, nodenext) and runs it against the platform', async () => {
    const env = noCompilerEnv(work);
    const app = installInEmptyProject(work, `readme-${type}`, type, packed.tarball, env);
    let ada: Player | undefined;
    try {
      ada = await fullPlayer(e2e, 'napi', `ada_${type}`);
      const token = await provisionalToken(e2e, `pack-player-${type}`, 'Pack Player');
      typeScriptProject(
        app,
        program(type, {
          apiBase: JSON.stringify(e2e.apiBase),
          caFile: JSON.stringify(e2e.caFile),
          applicationId: `${e2e.platform.devApp.id}n`,
          accessToken: JSON.stringify(token),
          friendId: `${ada.id}n`,
        }).replace("sendGameFriendRequest('ada')", `sendGameFriendRequest('ada_${type}')`),
      );
      // tsc is JavaScript: it runs from the repository, on the project's own files and its installed svcpp.
      const tsc = run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', app], app);
      expect(tsc).toBe('');
      const emitted = readFileSync(join(app, 'out', 'main.js'), 'utf8');
      expect(emitted).toMatch(
        type === 'module' ? /^import \{ ActivityTypes, Client \} from 'svcpp';$/m : /require\("svcpp"\)/,
      );

      const result = await runNode('out/main.js', app, env);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).not.toContain(token);
      const [playerId] = (await waitForEvent(ada, 'relationshipCreated')) as [bigint];
      expect(ada.client.getRelationship(playerId)).toMatchObject({
        gameRelationshipType: RelationshipType.PendingIncoming,
      });
      const [invite] = (await waitForEvent(ada, 'activityInviteCreated')) as [{ senderId: bigint; partyId: string }];
      expect(invite).toMatchObject({ senderId: playerId, partyId: 'party-1' });
      await waitForEvent(
        ada,
        'messageCreated',
        ([messageId]) => ada!.client.getMessage(messageId as bigint)?.content === 'see you at 8',
      );
    } finally {
      await closeAll(ada);
    }
  });
});

it('require and import reach one instance of the package (no dual-package hazard)', () => {
  const env = noCompilerEnv(work);
  const app = installInEmptyProject(work, 'dual', 'commonjs', packed.tarball, env);
  writeFileSync(
    join(app, 'dual.js'),
    `
const required = require('svcpp');
const requiredServer = require('svcpp/server');
(async () => {
  const imported = await import('svcpp');
  const importedServer = await import('svcpp/server');
  const same = (a, b) => Object.keys(a).filter((name) => a[name] !== b[name]);
  console.log(
    Object.keys(imported).length > 20,
    JSON.stringify(same(imported, required)),
    JSON.stringify(same(importedServer, requiredServer)),
  );
  const { Client, SvcppError } = required;
  const client = new imported.Client({ applicationId: 5n });
  console.log(client instanceof Client, imported.loadBackend() === required.loadBackend());
  try {
    client.applicationId = -1n;
  } catch (error) {
    console.log(error instanceof SvcppError, error instanceof imported.SvcppError);
  }
  await client.close();
})();
`,
  );
  expect(run('node', ['dual.js'], app, env).trim().split('\n')).toEqual(['true [] []', 'true true', 'true true']);
});

// docs/packaging.md "Bundlers and Electron" (issue 40, item 16): a CommonJS bundle that took koffi in died at start-up
// ("Cannot find the native Koffi module"), and the Electron guide's asarUnpack left koffi's binary packed.
describe('docs/packaging.md: bundlers and Electron', () => {
  const guide = join(root, 'docs/packaging.md');
  const MAIN = `
const { Client, loadBackend } = require('svcpp');
(async () => {
  const client = new Client({ applicationId: 5n });
  console.log(client.applicationId, client.createAuthorizationCodeVerifier().verifier.length);
  await client.close();
  try { loadBackend('koffi'); } catch (error) { console.log(error.message.split(' (')[0]); }
})();
`;

  it('the esbuild recipe: the bundle of an N-API app runs with only the native files beside it (no koffi)', () => {
    const app = installInEmptyProject(work, 'bundle', 'commonjs', packed.tarball, noCompilerEnv(work));
    writeFileSync(join(app, 'main.js'), MAIN);
    // The guide's commands, as a user runs them in the project (npm installs esbuild from the registry or its cache).
    const out = run('sh', ['-ec', docRecipe(guide, 'esbuild')], app, {
      ...process.env,
      npm_config_prefer_offline: 'true',
    });
    expect(out.trim().split('\n').at(-1)).toBe('5n 43'); // in the project, koffi resolves from its node_modules
    // out/ holds the bundle and the native files alone; shipped where no node_modules is, it runs without koffi.
    expect(readdirSync(join(app, 'out')).sort()).toEqual(['main.js', 'svcpp']);
    expect(readFileSync(join(app, 'out/main.js'), 'utf8')).not.toContain('Cannot find the native Koffi module');
    const shipped = mkdtempSync(join(work, 'shipped-'));
    cpSync(join(app, 'out'), shipped, { recursive: true });
    const shippedEnv = { ...noCompilerEnv(work), SVCPP_PREBUILD: join(shipped, 'svcpp') };
    expect(run('node', ['main.js'], shipped, shippedEnv).trim().split('\n')).toEqual([
      '5n 43',
      'svcpp: the koffi backend needs the koffi package and its native module beside the running code',
    ]);
  });

  it("the electron-builder recipe's asarUnpack globs match every native file of an installed svcpp, koffi's included", () => {
    const app = installInEmptyProject(work, 'electron', 'commonjs', packed.tarball, noCompilerEnv(work));
    const { asarUnpack } = JSON.parse(docRecipe(guide, 'electron-builder')).build as { asarUnpack: string[] };
    const files = (readdirSync(join(app, 'node_modules'), { recursive: true }) as string[]).map(
      (name) => `node_modules/${name}`,
    );
    const native = files.filter((file) => /\.(node|so)$/.test(file));
    expect(native).toEqual(
      expect.arrayContaining([
        'node_modules/svcpp/prebuilds/linux-x64/svcpp.glibc.node',
        'node_modules/svcpp/prebuilds/linux-x64/libsvcpp.so',
        'node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node',
      ]),
    );
    // electron-builder matches with minimatch against the path in the app; every native file must be unpacked.
    const unpacked = (file: string) => asarUnpack.some((glob) => minimatch(file, glob, { dot: true }));
    expect(native.filter((file) => !unpacked(file))).toEqual([]);
  });
});
