/**
 * The README's TypeScript snippets, run as written (test/readme/snippets.ts extracts the marked blocks) in their own
 * Node process through tsx against the platform over TLS, the Client ones on both backends. Each snippet gets only
 * a prelude declaring the free variables it uses; `svcpp` resolves to lib/ (tsconfig paths). They are type-checked
 * with tsc as well, so the README cannot drift from the API.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelationshipType } from '../lib/index.js';
import { BACKENDS } from './backends.js';
import { createFullUser, provisionalToken, startE2EPlatform, type E2EPlatform } from './e2e/harness.js';
import { fullPlayer, provisionalPlayer } from './e2e/social-support.js';
import { closeAll, waitForEvent, type Player } from './e2e/player.js';
import { readmeSnippets } from './readme/snippets.js';
import { request } from '../platform/test/support/http.js';
import { freeLoopbackPort as freePort } from '../platform/test/support/ports.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const snippets = readmeSnippets(join(root, 'README.md'));
const work = mkdtempSync(join(tmpdir(), 'svcpp-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A free variable of a snippet: its TypeScript type (for tsc) and the expression that gives it a value (to run it). */
interface Free {
  type: string;
  value: string;
}
type Frees = Record<string, Free>;
const text = (value: string): Free => ({ type: 'string', value: JSON.stringify(value) });
const snowflake = (value: bigint | string): Free => ({ type: 'bigint', value: `${value}n` });

/** What `svcpp` is for a run: lib/ itself (napi, the default backend) or lib/ with a koffi-default Client. */
const ENTRIES = { napi: join(root, 'lib/index.ts'), koffi: join(root, 'test/readme/svcpp-koffi.ts') } as const;

/** A directory with a tsconfig whose paths map the package names to the sources (tsx and tsc both read it). */
function projectDir(backend: keyof typeof ENTRIES, files: string[] = []): string {
  const dir = mkdtempSync(join(work, `${backend}-`));
  const tsconfig = {
    extends: join(root, 'tsconfig.json'),
    compilerOptions: {
      noEmit: true,
      rootDir: '/',
      typeRoots: [join(root, 'node_modules/@types')],
      paths: { svcpp: [ENTRIES[backend]], 'svcpp/server': [join(root, 'lib/server.ts')] },
    },
    files,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  return dir;
}

function snippetCode(name: string): string {
  const code = snippets.get(name);
  if (code === undefined) throw new Error(`README.md has no snippet "${name}"`);
  return code;
}

/** The snippet as written after a prelude giving each free variable its value (`imports`: what those values use). */
function writeRunnable(dir: string, name: string, frees: Frees, imports: string[] = []): string {
  const prelude = Object.entries(frees).map(([variable, free]) => `const ${variable}: ${free.type} = ${free.value};`);
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, [...imports, ...prelude, snippetCode(name)].join('\n'));
  return file;
}

/** tsx's loader by URL: the snippet's directory is outside the repository, where `--import tsx` would not resolve. */
const TSX_LOADER = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a snippet file with tsx in its directory; resolves when it exits, or — for a snippet that keeps serving —
 * once `done(stdout)` holds (then it is stopped).
 */
function run(file: string, dir: string, done?: (stdout: string) => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, file], {
      cwd: dir,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(dir, 'tsconfig.json') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (done?.(stdout)) child.kill();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: done?.(stdout) ? 0 : status, stdout, stderr }));
  });
}

/** The declared types of every snippet's free variables, for the type check. */
const DECLARED: Record<string, Record<string, string>> = {
  launcher: {
    apiBase: 'string',
    webBase: 'string',
    caFile: 'string',
    applicationId: 'bigint',
    shell: '{ openExternal(url: string): Promise<unknown> }',
  },
  'provisional-player': {
    apiBase: 'string',
    caFile: 'string',
    applicationId: 'bigint',
    accessToken: 'string',
    friendId: 'bigint',
  },
  'game-server': {
    apiBase: 'string',
    botToken: 'string',
    caFile: 'string',
    applicationId: 'bigint',
    userId: 'bigint',
    other: 'bigint',
    publicKey: 'string',
    webhookPort: 'number',
    unlinkPlayer: '(data: unknown) => Promise<void>',
  },
};

it('every marked README snippet has a scenario here, and they type-check as written', () => {
  expect([...snippets.keys()]).toEqual(Object.keys(DECLARED));
  const files = [...snippets.keys()].map((name) => `${name}.mts`);
  const dir = projectDir('napi', files);
  for (const name of snippets.keys()) {
    const declarations = Object.entries(DECLARED[name]!).map(
      ([variable, type]) => `declare const ${variable}: ${type};`,
    );
    writeFileSync(join(dir, `${name}.mts`), [...declarations, snippetCode(name)].join('\n'));
  }
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    encoding: 'utf8',
  });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
});

/** The free variables a run gets: the declared names with values (the declared types double as the run's types). */
function frees(name: string, values: Record<string, string>): Frees {
  const declared = DECLARED[name]!;
  expect(Object.keys(values).sort()).toEqual(Object.keys(declared).sort());
  return Object.fromEntries(
    Object.entries(values).map(([variable, value]) => [variable, { type: declared[variable]!, value }]),
  );
}

describe.each(BACKENDS)('README client snippets over %s', (backend) => {
  let e2e: E2EPlatform;
  beforeAll(async () => {
    e2e = await startE2EPlatform();
  });
  afterAll(() => e2e?.close());

  it("launcher: signs a full account in through the consent page, connects and lists a guild's channels", async () => {
    const username = `launcher_${backend}`;
    await createFullUser(e2e, { username });
    const guild = await request(`${e2e.apiBase}/dev/guilds`, {
      ca: e2e.caPem,
      json: { name: 'Readme Guild', owner: username, channels: [{ name: 'readme-general', type: 0 }] },
    });
    expect(guild.status).toBe(201);

    const dir = projectDir(backend);
    const file = writeRunnable(
      dir,
      'launcher',
      frees('launcher', {
        apiBase: text(e2e.apiBase).value,
        webBase: text(e2e.webBase).value,
        caFile: text(e2e.caFile).value,
        applicationId: snowflake(e2e.platform.devApp.id).value,
        // The browser: the platform's development auto-approve as the user, delivered to the SDK's loopback listener.
        shell:
          '{ openExternal: (url: string) => ' +
          `approveAuthorizeUrl({ caPem: ${JSON.stringify(e2e.caPem)} } as E2EPlatform, ` +
          `url, ${JSON.stringify(username)}) }`,
      }),
      [`import { approveAuthorizeUrl, type E2EPlatform } from ${JSON.stringify(join(root, 'test/e2e/harness.ts'))};`],
    );

    const result = await run(file, dir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`username: '${username}'`);
    expect(result.stdout).toContain(`[ 'readme-general' ]`);
    // Statuses print by name (issue 40, item 16: they printed as numbers): the walk to Ready.
    expect(result.stdout).toMatch(/^status Ready None 0$/m);
  });

  it('provisional-player: game friend request, invite, lobby chat and a DM reach the friend', async () => {
    let ada: Player | undefined;
    try {
      ada = await fullPlayer(e2e, backend, 'ada');
      const token = await provisionalToken(e2e, `readme-player-${backend}`, 'Readme Player');
      const dir = projectDir(backend);
      const file = writeRunnable(
        dir,
        'provisional-player',
        frees('provisional-player', {
          apiBase: text(e2e.apiBase).value,
          caFile: text(e2e.caFile).value,
          applicationId: snowflake(e2e.platform.devApp.id).value,
          accessToken: text(token).value,
          friendId: snowflake(ada.id).value,
        }),
      );
      const result = await run(file, dir);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).not.toContain(token);

      const [playerId] = (await waitForEvent(ada, 'relationshipCreated')) as [bigint];
      expect(ada.client.getRelationship(playerId)).toMatchObject({
        gameRelationshipType: RelationshipType.PendingIncoming,
        platformRelationshipType: RelationshipType.None,
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

  it("the README's claim: a provisional account cannot send a platform friend request (ERR_SVCPP_VALIDATION)", async () => {
    const player = await provisionalPlayer(e2e, backend, `readme-claim-${backend}`);
    try {
      await createFullUser(e2e, { username: `claim_friend_${backend}` });
      await expect(player.client.sendPlatformFriendRequest(`claim_friend_${backend}`)).rejects.toMatchObject({
        code: 'ERR_SVCPP_VALIDATION',
      });
    } finally {
      await closeAll(player);
    }
  });
});

describe('README game-server snippet', () => {
  it('creates a token and a lobby, then verifies a real webhook event and hands it to the handler', async () => {
    const webhookPort = await freePort();
    const e2e = await startE2EPlatform({
      devAppWebhookUrl: `http://127.0.0.1:${webhookPort}/webhooks`,
      webhookRetry: { baseMs: 20, maxMs: 200 },
    });
    try {
      const userIdOf = async (externalUserId: string) => {
        const token = await provisionalToken(e2e, externalUserId);
        return BigInt(
          (await request(`${e2e.apiBase}/users/@me`, { ca: e2e.caPem, headers: { authorization: `Bearer ${token}` } }))
            .body.id,
        );
      };
      const [userId, other, banned] = [
        await userIdOf('readme-a'),
        await userIdOf('readme-b'),
        await userIdOf('readme-banned'),
      ];
      const dir = projectDir('napi');
      const file = writeRunnable(
        dir,
        'game-server',
        frees('game-server', {
          apiBase: text(e2e.apiBase).value,
          botToken: text(e2e.platform.devApp.botToken).value,
          caFile: text(e2e.caFile).value,
          applicationId: snowflake(e2e.platform.devApp.id).value,
          userId: snowflake(userId).value,
          other: snowflake(other).value,
          publicKey: text(e2e.platform.devApp.publicKey).value,
          webhookPort: String(webhookPort),
          unlinkPlayer: `async (data: unknown) => console.log('unlinked', JSON.stringify(data))`,
        }),
      );

      // A ban sends APPLICATION_DEAUTHORIZED to the application (retried until the snippet listens).
      const ban = await request(`${e2e.apiBase}/dev/users/${banned}/ban`, {
        ca: e2e.caPem,
        json: { duration_seconds: 3600 },
      });
      expect(ban.status).toBeLessThan(300);
      const result = await run(file, dir, (stdout) => stdout.includes('unlinked'));
      expect(result.stderr).toBe('');
      const unlinked = JSON.parse(/^unlinked (.*)$/m.exec(result.stdout)![1]!) as { user: { id: string } };
      expect(unlinked.user.id).toBe(String(banned));
      expect(result.stdout).not.toContain(e2e.platform.devApp.botToken);

      // The lobby the snippet made: created with userId, then other added with metadata and userId removed.
      const store = e2e.platform.store.lobbies;
      const [lobby] = store.listForUser(String(other), e2e.platform.devApp.id);
      expect(lobby?.metadata).toEqual({ mode: 'ranked' });
      expect(store.members(lobby!.id).map((m) => [m.userId, m.metadata])).toEqual([[String(other), { team: 'red' }]]);
    } finally {
      await e2e.close();
    }
  });
});
