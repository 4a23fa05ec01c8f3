// The guides' runnable examples (docs/examples/), each run the way a user outside the repository runs it: in an empty
// folder holding a copy of the example, with the commands of the guide's marked recipe (`<!-- recipe: run-… -->`),
// against the real platform at its default address form (plain HTTP: `npx svcpp-platform` serves
// http://127.0.0.1:8787). The test changes only what a user's machine decides: `npm install svcpp` installs the
// packed package (packed once for this file, as `npm pack` makes it), the platform's port is an ephemeral one, and
// the `<placeholders>` get the values the platform printed. The engine plugin builds against the SDK archive
// (`npm run sdk-archive`), unpacked. Guides that said https://127.0.0.1:8443, platform-ca.pem and
// `node --import tsx docs/examples/…` failed outside the repository (issue 40, item 14).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcppServer } from '../lib/server.js';
import { startPlatform, type RunningPlatform, type StartOptions } from '../platform/src/index.js';
import { request } from '../platform/test/support/http.js';
import { freeLoopbackPort } from '../platform/test/support/ports.js';
import { approveAuthorizeUrl, type E2EPlatform } from './e2e/harness.js';
import { packPackage, withPackageLock, type PackedPackage } from './pack/package.js';
import { docRecipe } from './support/doc-recipes.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const examples = join(root, 'docs', 'examples');
const work = mkdtempSync(join(tmpdir(), 'svcpp-docs-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The platform's defaults, as platform/bin/svcpp-platform.mjs declares them (what `npx svcpp-platform` uses). */
const cli = readFileSync(join(root, 'platform/bin/svcpp-platform.mjs'), 'utf8');
const cliDefault = (option: string) =>
  new RegExp(`^ {4}'?${option}'?: \\{ type: 'string', default: '([^']+)' \\}`, 'm').exec(cli)?.[1];
const DEFAULT_ORIGIN = `http://${cliDefault('host')}:${cliDefault('port')}`;
const GUIDES = ['electron-launcher.md', 'game-server.md', 'engine-plugin.md'];

let packed: PackedPackage;
beforeAll(() => {
  packed = packPackage(work);
}, 900_000);

/** The environment of a user's shell: nothing of svcpp's test set-up (no SVCPP_* variables, no tsx config). */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SVCPP_') && !name.startsWith('TSX_')),
  );
  // npm takes tsx from its cache when it has it (the registry otherwise).
  return { ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
}

/** A user's folder: empty but for a copy of the guide's example. */
function userFolder(example: string): string {
  const dir = mkdtempSync(join(work, `${example.replace(/\W/g, '-')}-`));
  copyFileSync(join(examples, example), join(dir, example));
  return dir;
}

/**
 * The guide's recipe as this machine runs it: `npm install svcpp …` installs the packed tarball, the default
 * address is the test platform's, each placeholder gets its value. Returns the recipe's commands, one per entry
 * (a `\` continuation joins lines).
 */
function recipeCommands(guide: string, recipe: string, origin: string, values: Record<string, string>): string[] {
  let text = docRecipe(join(root, 'docs', guide), recipe);
  text = text.replace(/^npm install svcpp /m, `npm install ${packed.tarball} `).replaceAll(DEFAULT_ORIGIN, origin);
  for (const [placeholder, value] of Object.entries(values)) text = text.replaceAll(placeholder, value);
  expect(text, 'every placeholder of the recipe has a value').not.toMatch(/<[a-z ]+>/);
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/**
 * Type-checks the example (strict, nodenext, as an ES module: the launcher uses top-level await) against the svcpp the
 * user's folder installed: a copy in a subfolder marked "type": "module" resolves svcpp from the folder's node_modules.
 */
function typeCheck(folder: string, example: string): void {
  const dir = join(folder, 'typecheck');
  mkdirSync(dir);
  copyFileSync(join(folder, example), join(dir, example));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'ES2022',
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
      },
      files: [example],
    }),
  );
  // tsc is JavaScript: it runs from the repository, on the folder's own files and its installed svcpp.
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    encoding: 'utf8',
  });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
}

/** Runs one recipe command to its end (an install, a compile) in `cwd`; returns its stdout. */
const runCommand = (command: string, cwd: string) =>
  execFileSync('sh', ['-ec', command], {
    cwd,
    env: userEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });

interface Running {
  output(): { stdout: string; stderr: string };
  /** Resolves with stdout's match once it matches `pattern`; rejects when the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  /** Ends the command and everything it started (npx, tsx and node are three processes). */
  stop(): Promise<void>;
}

/** Starts a recipe command in its own process group, as a terminal would. */
function startCommand(command: string, cwd: string): Running {
  const child: ChildProcess = spawn('sh', ['-ec', command], { cwd, env: userEnv(), detached: true });
  let stdout = '';
  let stderr = '';
  let done = false;
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    waiters.forEach((w) => w());
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (status) => {
      done = true;
      resolve(status);
      waiters.forEach((w) => w());
    }),
  );
  return {
    exited,
    output: () => ({ stdout, stderr }),
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout);
          if (match) resolve(match);
          else if (done) reject(new Error(`exited before printing ${pattern}: ${stdout}\n${stderr}`));
        };
        waiters.push(check);
        check();
      }),
    stop: async () => {
      if (!done) {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}

/** The real platform on loopback, plain HTTP as `npx svcpp-platform` starts it by default (in-memory database). */
interface GuidePlatform {
  platform: RunningPlatform;
  origin: string;
  apiBase: string;
  server: SvcppServer;
}
async function startGuidePlatform(options: Omit<StartOptions, 'tls'> = {}): Promise<GuidePlatform> {
  const platform = await startPlatform({ port: 0, database: ':memory:', logger: false, ...options, tls: false });
  const server = new SvcppServer({
    apiBase: platform.apiBase,
    botToken: platform.devApp.botToken,
    applicationId: platform.devApp.id,
  });
  return { platform, origin: platform.httpUrl, apiBase: platform.apiBase, server };
}

describe('the guides', () => {
  it("use the platform's default address and CA file name, and run nothing from the repository", () => {
    expect(DEFAULT_ORIGIN).toBe('http://127.0.0.1:8787');
    const caFile = cliDefault('cert-out');
    expect(caFile).toBe('svcpp-platform-ca.pem');
    for (const guide of GUIDES) {
      const text = readFileSync(join(root, 'docs', guide), 'utf8');
      expect(text, guide).toContain(DEFAULT_ORIGIN);
      expect(text, guide).toContain(caFile);
      expect(text, guide).not.toMatch(/127\.0\.0\.1:(?!8787\b|8080\b)\d+/);
      expect(text, guide).not.toMatch(/(?<![\w-])platform-ca\.pem/);
      const recipe = docRecipe(join(root, 'docs', guide), `run-${guide.replace(/\.md$/, '').replace('electron-', '')}`);
      expect(recipe, guide).not.toContain('docs/examples');
      expect(recipe, guide).not.toContain('--import tsx');
    }
  });
});

describe('docs/examples, as a user runs them', () => {
  it('launcher-sign-in.ts: signs a full account in through the consent page and lists its servers', async () => {
    const guide = await startGuidePlatform();
    let example: Running | undefined;
    try {
      const e2e = { caPem: '' } as E2EPlatform; // plain HTTP: nothing to trust
      await request(`${guide.apiBase}/dev/users`, {
        json: { username: 'docs_launcher', global_name: 'Docs Launcher' },
      });
      const guild = await request(`${guide.apiBase}/dev/guilds`, {
        json: { name: 'Docs Guild', owner: 'docs_launcher', channels: [{ name: 'docs-general', type: 0 }] },
      });
      expect(guild.status).toBe(201);
      const folder = userFolder('launcher-sign-in.ts');
      const commands = recipeCommands('electron-launcher.md', 'run-launcher', guide.origin, {
        '<client id>': String(guide.platform.devApp.id),
      });
      const start = commands.pop()!; // the last command runs the example; the others set the folder up
      for (const command of commands) runCommand(command, folder);
      typeCheck(folder, 'launcher-sign-in.ts');
      example = startCommand(start, folder);
      const [, url] = await example.waitFor(/^open this page to sign in: (\S+)$/m);
      // The user's browser: the platform's development consent as docs_launcher, redirected to the SDK's listener.
      await approveAuthorizeUrl(e2e, url!, 'docs_launcher');
      expect(await example.exited).toBe(0);
      const { stdout, stderr } = example.output();
      expect(stderr).toBe('');
      expect(stdout).toMatch(/^signed in as .+ \(@docs_launcher\)$/m);
      expect(stdout).toMatch(/^server Docs Guild: #docs-general$/m);
    } finally {
      await example?.stop();
      await guide.platform.close();
    }
  }, 600_000); // npm installs the package and tsx, tsc checks the example: minutes on a loaded machine

  it('game-server.ts: hands out provisional tokens, makes a match lobby and takes a signed webhook', async () => {
    const port = await freeLoopbackPort();
    const guide = await startGuidePlatform({
      devAppWebhookUrl: `http://127.0.0.1:${port}/webhooks`,
      webhookRetry: { baseMs: 20, maxMs: 200 },
    });
    let example: Running | undefined;
    try {
      const folder = userFolder('game-server.ts');
      const { devApp } = guide.platform;
      const commands = recipeCommands('game-server.md', 'run-game-server', guide.origin, {
        '<client id>': String(devApp.id),
        '<bot token>': devApp.botToken,
        '<public key>': devApp.publicKey,
        'PORT=8080': `PORT=${port}`,
      });
      const start = commands.pop()!;
      for (const command of commands) runCommand(command, folder);
      typeCheck(folder, 'game-server.ts');
      example = startCommand(start, folder);
      await example.waitFor(/^game backend on (\S+)$/m);
      const backend = `http://127.0.0.1:${port}`;
      const userIds: string[] = [];
      for (const player of ['steam:1', 'steam:2']) {
        const token = await request(`${backend}/players/${player}/token`, { method: 'POST' });
        expect(token.status).toBe(200);
        const me = await request(`${guide.apiBase}/users/@me`, {
          headers: { authorization: `Bearer ${token.body.accessToken}` },
        });
        expect(me.status).toBe(200);
        userIds.push(me.body.id);
      }
      const match = await request(`${backend}/matches`, { json: { players: userIds } });
      expect(match.status).toBe(201);
      const lobby = await guide.server.getLobby(match.body.lobbyId);
      expect(lobby.members.map((member) => String(member.userId)).sort()).toEqual([...userIds].sort());
      // A ban makes the platform send APPLICATION_DEAUTHORIZED to the application's webhook URL: the example's.
      const ban = await request(`${guide.apiBase}/dev/users/${userIds[0]}/ban`, { json: { duration_seconds: 60 } });
      expect(ban.status).toBeLessThan(300);
      await example.waitFor(/^webhook APPLICATION_DEAUTHORIZED$/m);
      expect(example.output().stderr).toBe('');
      expect(example.output().stdout).not.toContain(devApp.botToken);
    } finally {
      await example?.stop();
      await guide.platform.close();
    }
  }, 600_000); // npm installs the package and tsx, tsc checks the example: minutes on a loaded machine

  it('engine-plugin.cpp: builds as C++17 against the SDK archive, signs in, sets presence and greets its lobby', async () => {
    // The archive as `npm run sdk-archive` makes it (under the lock: it builds in the checkout's CMake tree), unpacked.
    const archive = withPackageLock(() =>
      execFileSync(process.execPath, [join(root, 'tools/make-sdk-archive.mjs'), '--out', work], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim(),
    );
    const unpacked = join(work, 'sdk');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', archive, '-C', unpacked, '--strip-components=1']);
    const guide = await startGuidePlatform();
    try {
      const token = await guide.server.createProvisionalToken({
        externalUserId: 'docs-engine-player',
        preferredGlobalName: 'Engine Player',
      });
      const folder = userFolder('engine-plugin.cpp');
      const [compile, start, ...rest] = recipeCommands('engine-plugin.md', 'run-engine-plugin', guide.origin, {
        '<archive>': unpacked,
        '<client id>': String(guide.platform.devApp.id),
        '<access token>': token.accessToken,
      });
      expect(rest).toEqual([]);
      runCommand(`${compile} -Wall -Wextra -Werror`, folder);
      const example = startCommand(start!, folder);
      expect(await example.exited).toBe(0);
      const { stdout, stderr } = example.output();
      expect(stderr).toBe('');
      const [, userId, lobbyId, messageId] = /^ready (\d+)\nlobby (\d+)\nmessage (\d+)\n$/.exec(stdout) ?? [];
      expect(messageId).toBeDefined();
      const lobby = await guide.server.getLobby(lobbyId!);
      expect(lobby.members.map((member) => String(member.userId))).toEqual([userId]);
    } finally {
      await guide.platform.close();
    }
  }, 900_000);
});
