/**
 * `svcpp-platform rpc --platform <url>` (PROTOCOL.md §12.8): the local client as a process of its own, signed in as
 * the desktop user and talking to the platform over HTTP and the gateway only. An unmodified RPC client library
 * sets activities through it that a friend sees over the gateway; consent is answered on its stdin; killed and
 * started again, it serves on the same socket and the presence comes back.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@xhayper/discord-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { accessTokenFor, createApp, eventually, startTestPlatform, tempDir } from '../support/platform.js';
import { connect, drain, received, type Session, type SocialUser } from '../support/social.js';
import { DESKTOP_USER, deskFriend } from './harness.js';
import { IpcClient } from './ipc-client.js';
import { LocalClientProcess } from './local-client-process.js';

const CLI = fileURLToPath(new URL('../../bin/svcpp-platform.mjs', import.meta.url));

/** Runs the CLI to its end (asynchronously: the platform it talks to lives in this process). */
function run(...args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'rpc', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SVCPP_LOG_LEVEL: 'silent' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stderr })));
}

type PresenceUpdate = { user: { id: string }; status: string; activities: Array<Record<string, unknown>> };

// Each start loads the platform's sources in a new Node process (several seconds on a loaded machine).
describe('the local client as its own process', { timeout: 120_000 }, () => {
  let platform: RunningPlatform;
  let dir: string;
  let desk: SocialUser;
  let local: LocalClientProcess;
  let previousRuntimeDir: string | undefined;
  const start = (autoApprove = false) =>
    LocalClientProcess.start({
      platformUrl: platform.httpUrl,
      login: DESKTOP_USER,
      signInApp: platform.devApp.id,
      socketDir: dir,
      autoApprove,
    });
  const updates = async (watcher: Session) =>
    (await received(platform, watcher, 'PRESENCE_UPDATE')) as PresenceUpdate[];

  beforeAll(async () => {
    dir = tempDir();
    platform = await startTestPlatform({ config: { users: [{ username: DESKTOP_USER, global_name: 'Desk' }] } });
    const token = (
      await accessTokenFor(platform, { clientId: platform.devApp.id, scope: 'sdk.social_layer', user: DESKTOP_USER })
    ).access_token;
    const me = await request(`${platform.apiBase}/users/@me`, { headers: { authorization: `Bearer ${token}` } });
    desk = { id: me.body.id as string, username: DESKTOP_USER, token };
    local = await start();
    // Test files run in their own processes (vitest pool "forks"): the library finds this file's local client only.
    previousRuntimeDir = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = dir;
  }, 120_000);
  afterAll(async () => {
    if (previousRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = previousRuntimeDir;
    await local?.kill();
    await platform?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unmodified RPC library sets activities of types 0, 2, 3 and 5 that a friend sees; killed and restarted, it serves again', async () => {
    const app = await createApp(platform, { name: 'Standalone Library Game', public_client: true });
    const friend = await deskFriend({ platform, desk });
    let watcher = await connect(platform, friend);
    const library = async () => {
      const client = new Client({ clientId: app.id, transport: { type: 'ipc' } });
      await client.connect();
      return client;
    };
    let client = await library();
    expect(client.user?.id).toBe(desk.id);
    await drain(platform, watcher);
    for (const type of [0, 2, 3, 5]) {
      await client.user!.setActivity({
        type,
        details: `Standalone type ${type}`,
        partyId: 'solo',
        partySize: 1,
        partyMax: 2,
      });
      expect((await updates(watcher)).at(-1)).toMatchObject({
        user: { id: desk.id },
        status: 'online',
        activities: [
          expect.objectContaining({
            type,
            details: `Standalone type ${type}`,
            application_id: app.id,
            name: 'Standalone Library Game',
          }),
        ],
      });
    }
    await expect(
      client.user!.setActivity({ type: 1, details: 'Streaming', url: 'https://twitch.tv/x' }),
    ).rejects.toMatchObject({ code: 4000 });

    // A crash: the process goes without a word (its gateway session stays resumable for a while, as published).
    const path = local.path;
    await local.kill();
    await client.destroy();
    await watcher.client.close(); // a gateway session of its own would need heartbeats while the process starts
    local = await start();
    watcher = await connect(platform, friend);
    expect(local.path).toBe(path); // the stale socket file is taken over
    client = await library();
    await client.user!.setActivity({ type: 0, details: 'Back again' });
    await eventually(async () => (await updates(watcher)).at(-1)?.activities[0]?.details === 'Back again');
    await client.destroy();
    await watcher.client.close();
  });

  it("AUTHORIZE is put to the desktop user on the process's stdin; approved, the code is the platform's", async () => {
    const app = await createApp(platform, { name: 'Standalone Consent Game', public_client: true });
    const { client } = await IpcClient.ready(local.path, app.id).catch((error: unknown) => {
      throw new Error(`${String(error)}; the local client's log: ${local.log}`);
    });
    const asked = client.request('AUTHORIZE', { client_id: app.id, scopes: ['identify'] });
    const consent = await local.next((line) => line.event === 'consent_request' && line.application_id === app.id);
    expect(consent).toEqual({
      event: 'consent_request',
      id: expect.any(Number),
      application_id: app.id,
      application_name: 'Standalone Consent Game',
      scopes: ['identify'],
    });
    expect(await local.command(`deny ${consent.id}`)).toEqual({ command: 'deny', id: consent.id });
    expect((await asked).data).toEqual({
      code: 5000,
      message: 'OAuth2 Error: access_denied: The user denied the request.',
    });

    const again = client.request('AUTHORIZE', { client_id: app.id, scopes: ['identify'] });
    const second = await local.next(
      (line) => line.event === 'consent_request' && line.application_id === app.id && line.id !== consent.id,
    );
    expect(await local.command(`approve ${second.id}`)).toEqual({ command: 'approve', id: second.id });
    const { data } = await again;
    const token = await request(`${platform.apiBase}/oauth2/token`, {
      form: { grant_type: 'authorization_code', code: data.code, client_id: app.id, client_secret: app.client_secret },
    });
    expect(token.status, token.text).toBe(200);
    expect(await local.command('approve 999')).toEqual({ command: 'approve', error: 'no pending consent request 999' });
    expect(await local.command('frobnicate')).toEqual({
      command: 'frobnicate',
      error: 'unknown command frobnicate (try help)',
    });
    await client.close();
  });

  it('stopped with Ctrl-C, it says goodbye: the activity its game set is cleared for friends, the exit code is 0', async () => {
    const app = await createApp(platform, { name: 'Standalone Goodbye Game', public_client: true });
    const own = await start();
    const watcher = await connect(platform, await deskFriend({ platform, desk }));
    const { client } = await IpcClient.ready(own.path, app.id);
    await client.request('SET_ACTIVITY', { pid: 1, activity: { type: 0, details: 'Until Ctrl-C' } });
    expect((await updates(watcher)).at(-1)?.activities).toEqual([
      expect.objectContaining({ details: 'Until Ctrl-C', application_id: app.id }),
    ]);
    expect(await own.stop()).toBe(0);
    await eventually(async () =>
      (await updates(watcher)).some((update) => update.user.id === desk.id && update.activities.length === 0),
    );
    await watcher.client.close();
  });

  it('refuses to start with bad credentials, a bad platform URL, or without --login', async () => {
    const wrong = await run(
      '--platform',
      platform.httpUrl,
      '--login',
      'nobody_here',
      '--sign-in-app',
      platform.devApp.id,
      '--rpc-dir',
      dir,
    );
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('the platform refused the sign-in of "nobody_here"');
    const url = await run('--platform', 'ftp://example', '--login', DESKTOP_USER);
    expect(url.status).toBe(2);
    expect(url.stderr).toContain('invalid --platform ftp://example');
    const login = await run('--platform', platform.httpUrl);
    expect(login.status).toBe(2);
    expect(login.stderr).toContain('needs --login');
  });
});
