// The guides' runnable examples (docs/examples/), each run as its guide says against the real platform over TLS:
// the launcher's sign-in (OAuth2 + PKCE, consent approved as a test user), the game backend (svcpp/server: tokens,
// a match lobby, a signed webhook) and the engine plugin (C++17 over svcpp.hpp, compiled and linked to libsvcpp.so).
// The TypeScript ones run with tsx, `svcpp` mapped to lib/ (as the README snippets are).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { approveAuthorizeUrl, createFullUser, provisionalToken, startE2EPlatform } from './e2e/harness.js';
import { request } from '../platform/test/helpers/http.js';
import { freeLoopbackPort } from '../platform/test/helpers/ports.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const examples = join(root, 'docs', 'examples');
const work = mkdtempSync(join(tmpdir(), 'svcpp-docs-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TSX_LOADER = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
/** A tsconfig mapping the package names to lib/ (tsx reads its paths). */
const tsconfig = join(work, 'tsconfig.json');
writeFileSync(tsconfig, JSON.stringify({
  extends: join(root, 'tsconfig.json'),
  compilerOptions: { paths: { svcpp: [join(root, 'lib/index.ts')], 'svcpp/server': [join(root, 'lib/server.ts')] } },
}));

interface Running {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves with stdout once it matches `pattern`; rejects when the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(command, args, { cwd: work, env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig, ...env } });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); waiters.forEach((w) => w()); });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (status) => { resolve(status); waiters.forEach((w) => w()); }));
  let done = false;
  child.on('close', () => (done = true));
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    waitFor: (pattern) => new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) resolve(match);
        else if (done) reject(new Error(`exited before printing ${pattern}: ${stdout}\n${stderr}`));
      };
      waiters.push(check);
      check();
    }),
  };
}

describe('docs/examples', () => {
  it('the TypeScript examples type-check (strict, nodenext) against the package\'s types', () => {
    const project = join(work, 'typecheck.json');
    writeFileSync(project, JSON.stringify({
      extends: tsconfig,
      compilerOptions: { noEmit: true, rootDir: '/', typeRoots: [join(root, 'node_modules/@types')] },
      files: [join(examples, 'launcher-sign-in.ts'), join(examples, 'game-server.ts')],
    }));
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('launcher-sign-in.ts: signs a full account in through the consent page and lists its servers', async () => {
    const e2e = await startE2EPlatform();
    try {
      await createFullUser(e2e, { username: 'docs_launcher', global_name: 'Docs Launcher' });
      const guild = await request(`${e2e.apiBase}/dev/guilds`, { ca: e2e.caPem, json: { name: 'Docs Guild', owner: 'docs_launcher', channels: [{ name: 'docs-general', type: 0 }] } });
      expect(guild.status).toBe(201);
      const example = start(process.execPath, ['--import', TSX_LOADER, join(examples, 'launcher-sign-in.ts')], {
        SVCPP_API_BASE: e2e.apiBase, SVCPP_WEB_BASE: e2e.webBase, SVCPP_CA_FILE: e2e.caFile, SVCPP_APPLICATION_ID: String(e2e.platform.devApp.id),
      });
      const [, url] = await example.waitFor(/^open this page to sign in: (\S+)$/m);
      // The user's browser: the platform's development consent as docs_launcher, redirected to the SDK's listener.
      await approveAuthorizeUrl(e2e, url!, 'docs_launcher');
      expect(await example.exited).toBe(0);
      const { stdout, stderr } = example.output();
      expect(stderr).toBe('');
      expect(stdout).toMatch(/^signed in as .+ \(@docs_launcher\)$/m);
      expect(stdout).toMatch(/^server Docs Guild: #docs-general$/m);
    } finally {
      await e2e.close();
    }
  });

  it('game-server.ts: hands out provisional tokens, makes a match lobby and takes a signed webhook', async () => {
    const port = await freeLoopbackPort();
    const e2e = await startE2EPlatform({ devAppWebhookUrl: `http://127.0.0.1:${port}/webhooks`, webhookRetry: { baseMs: 20, maxMs: 200 } });
    let example: Running | undefined;
    try {
      example = start(process.execPath, ['--import', TSX_LOADER, join(examples, 'game-server.ts')], {
        SVCPP_API_BASE: e2e.apiBase, SVCPP_CA_FILE: e2e.caFile, SVCPP_APPLICATION_ID: String(e2e.platform.devApp.id),
        SVCPP_BOT_TOKEN: e2e.platform.devApp.botToken, SVCPP_PUBLIC_KEY: e2e.platform.devApp.publicKey, PORT: String(port),
      });
      await example.waitFor(/^game backend on (\S+)$/m);
      const backend = `http://127.0.0.1:${port}`;
      const userIds: string[] = [];
      for (const player of ['steam:1', 'steam:2']) {
        const token = await request(`${backend}/players/${player}/token`, { method: 'POST' });
        expect(token.status).toBe(200);
        const me = await request(`${e2e.apiBase}/users/@me`, { ca: e2e.caPem, headers: { authorization: `Bearer ${token.body.accessToken}` } });
        expect(me.status).toBe(200);
        userIds.push(me.body.id);
      }
      const match = await request(`${backend}/matches`, { json: { players: userIds } });
      expect(match.status).toBe(201);
      const lobby = await e2e.server.getLobby(match.body.lobbyId);
      expect(lobby.members.map((member) => String(member.userId)).sort()).toEqual([...userIds].sort());
      // A ban makes the platform send APPLICATION_DEAUTHORIZED to the application's webhook URL: the example's.
      const ban = await request(`${e2e.apiBase}/dev/users/${userIds[0]}/ban`, { ca: e2e.caPem, json: { duration_seconds: 60 } });
      expect(ban.status).toBeLessThan(300);
      await example.waitFor(/^webhook APPLICATION_DEAUTHORIZED$/m);
      expect(example.output().stderr).toBe('');
      expect(example.output().stdout).not.toContain(e2e.platform.devApp.botToken);
    } finally {
      example?.child.kill();
      await example?.exited;
      await e2e.close();
    }
  });

  it('engine-plugin.cpp: builds as C++17 against svcpp.hpp, signs in, sets presence and greets its lobby', async () => {
    const binary = join(work, 'engine-plugin');
    const library = join(root, 'build', 'Release');
    execFileSync('c++', ['-std=c++17', '-Wall', '-Wextra', '-Werror', `-I${join(root, 'native/include')}`, join(examples, 'engine-plugin.cpp'),
      `-L${library}`, '-lsvcpp', `-Wl,-rpath,${library}`, '-o', binary]);
    const e2e = await startE2EPlatform();
    try {
      const token = await provisionalToken(e2e, 'docs-engine-player', 'Engine Player');
      const example = start(binary, [e2e.apiBase, e2e.webBase, e2e.caFile, String(e2e.platform.devApp.id), token, 'docs-party-secret']);
      expect(await example.exited).toBe(0);
      const { stdout, stderr } = example.output();
      expect(stderr).toBe('');
      const [, userId, lobbyId, messageId] = /^ready (\d+)\nlobby (\d+)\nmessage (\d+)\n$/.exec(stdout) ?? [];
      expect(messageId).toBeDefined();
      const lobby = await e2e.server.getLobby(lobbyId!);
      expect(lobby.members.map((member) => String(member.userId))).toEqual([userId]);
    } finally {
      await e2e.close();
    }
  });
});
