/**
 * The local client as its own process, end to end on both backends: the real platform, then `node
 * platform/bin/svcpp-platform.mjs rpc --platform <url> --login desk` started as a separate process that signs in as
 * the desktop user and reaches the platform over HTTPS and the gateway (WSS, certificate verified) only
 * (platform/PROTOCOL.md §12.8). The game's
 * link request and a join go through it, and both survive killing the process and starting it again: the SDK
 * reconnects by itself and subscribes again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as RpcLibraryClient } from '@xhayper/discord-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityActionTypes, ActivityTypes, Client } from '../../lib/index.js';
import { LocalClientProcess } from '../../platform/test/rpc/local-client-process.js';
import { BACKENDS } from '../backends.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { fullPlayer } from './social-support.js';
import { closeAll, type Player } from './player.js';
import { e2eClient, signIn, sleep, until } from './support.js';

const DESK = 'desk';

describe.each(BACKENDS)('the standalone local client process over %s', (backend) => {
  let dir: string;
  let e2e: E2EPlatform;
  let local: LocalClientProcess;
  let appId: bigint;
  const clients: Client[] = [];
  const players: Player[] = [];

  const startLocal = async () => {
    local = await LocalClientProcess.start({
      platformUrl: e2e.platform.httpUrl,
      login: DESK,
      signInApp: e2e.platform.devApp.id,
      socketDir: dir,
      caFile: e2e.caFile,
    });
    return local;
  };
  /** Kills the process (no goodbye, as a crash) and starts a new one on the same socket path. */
  const crashAndRestart = async () => {
    const path = local.path;
    await local.kill();
    await startLocal();
    expect(local.path).toBe(path);
  };
  const gameClient = () => {
    const client = e2eClient(e2e, backend, { ipcPath: local.path });
    clients.push(client);
    return client;
  };
  /**
   * The desktop user presses "link" in the local client until a subscribed game got it (the SDK subscribes once
   * connected).
   */
  const requestLinking = async () => {
    const deadline = Date.now() + 30_000;
    while (Number((await local.command(`authorize-request ${appId}`)).delivered) === 0) {
      if (Date.now() > deadline) throw new Error('timed out waiting for a game subscribed to AUTHORIZE_REQUEST');
      await sleep(50);
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcpp-rpc-standalone-e2e-'));
    e2e = await startE2EPlatform({ config: { users: [{ username: DESK, global_name: 'Desk' }] } });
    appId = BigInt(e2e.platform.devApp.id);
    await startLocal();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await closeAll(...players);
    await local?.kill();
    await e2e?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the local client process asks the game to link: the authorize-request callback fires, authorize() completes; again after a crash and restart', async () => {
    const client = gameClient();
    let requests = 0;
    client.on('authorizeRequest', () => requests++);
    await requestLinking();
    await until(() => requests === 1, 'the authorize-request callback');
    const { tokens } = await signIn(e2e, client, DESK);
    expect(tokens.accessToken).not.toBe('');

    await crashAndRestart();
    await requestLinking(); // the SDK reconnected to the new process and subscribed again by itself
    await until(() => requests === 2, 'the authorize-request callback after the restart');
  });

  it('a join pressed in the local client process fires the join callbacks with the secret; again after a crash and restart', async () => {
    const desk = gameClient();
    const { tokens } = await signIn(e2e, desk, DESK);
    await desk.updateToken(tokens.accessToken);
    await desk.connect();
    const host = await fullPlayer(e2e, backend, `host_standalone_${backend}`);
    players.push(host);
    await host.client.sendPlatformFriendRequest(DESK);
    await until(() => desk.getRelationship(host.id) !== undefined, 'the friend request reaches desk');
    await desk.acceptPlatformFriendRequest(host.id);
    await host.client.updateRichPresence({
      type: ActivityTypes.Playing,
      state: 'In a match',
      party: { id: `party-standalone-${backend}`, currentSize: 1, maxSize: 4 },
      secrets: { join: `standalone-join-${backend}` },
    });
    const invites: bigint[] = [];
    desk.on(
      'activityInviteCreated',
      (invite) => invite.type === ActivityActionTypes.Join && invites.push(invite.messageId),
    );
    await until(() => desk.currentUser !== undefined, 'the current user');
    await host.client.sendActivityInvite(desk.currentUser!.id, 'come');
    await until(() => invites.length === 1, 'the invite');

    const joins: string[] = [];
    const withApp: Array<[bigint, string]> = [];
    desk.on('activityJoin', (secret) => joins.push(secret));
    desk.on('activityJoinWithApplication', (applicationId, secret) => withApp.push([applicationId, secret]));
    // The desktop user presses "Join" in the local client: delivered at once to a subscribed game, else kept for it.
    const joined = await local.command(`join ${invites[0]} ${appId}`);
    expect(joined).toEqual({
      command: 'join',
      application_id: String(appId),
      delivery: expect.stringMatching(/^(delivered|queued)$/),
    });
    await until(() => joins.length === 1 && withApp.length === 1, 'the join callbacks');
    expect(joins).toEqual([`standalone-join-${backend}`]);
    expect(withApp).toEqual([[appId, `standalone-join-${backend}`]]);

    await crashAndRestart();
    expect((await local.command(`join ${invites[0]} ${appId}`)).application_id).toBe(String(appId));
    await until(() => joins.length === 2, 'the join callback after the restart');
    expect(joins[1]).toBe(`standalone-join-${backend}`);
    expect(withApp[1]).toEqual([appId, `standalone-join-${backend}`]);
    // An invite that is not the desktop user's is refused with the platform's answer, and nothing reaches the game.
    expect(await local.command(`join 12345 ${appId}`)).toEqual({ command: 'join', error: 'Unknown Message' });
  });
  it("an independent RPC library sets activities of types 0, 2, 3 and 5 through the local client process; a friend's SDK client sees each", async () => {
    const desk = gameClient();
    const { tokens } = await signIn(e2e, desk, DESK);
    await desk.updateToken(tokens.accessToken);
    await desk.connect();
    const watcher = await fullPlayer(e2e, backend, `watcher_standalone_${backend}`);
    players.push(watcher);
    await watcher.client.sendPlatformFriendRequest(DESK);
    await until(() => desk.getRelationship(watcher.id) !== undefined, 'the friend request reaches desk');
    await desk.acceptPlatformFriendRequest(watcher.id);
    await until(() => desk.currentUser !== undefined, 'the current user');
    const deskId = desk.currentUser!.id;
    await desk.close(); // from here on only the local client process speaks for desk

    // The library finds the socket the way any game does: discord-ipc-{n} under XDG_RUNTIME_DIR (this test file runs
    // in its own process, so the variable reaches only it).
    const previousRuntimeDir = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = dir;
    const library = new RpcLibraryClient({ clientId: String(appId), transport: { type: 'ipc' } });
    try {
      await library.connect();
      for (const type of [0, 2, 3, 5]) {
        const state = `Library type ${type} over ${backend}`;
        await library.user!.setActivity({ type, details: 'From the library', state });
        await until(
          () => watcher.client.getUser(deskId)?.gameActivity?.state === state,
          `the friend sees the type ${type} activity`,
        );
        expect(watcher.client.getUser(deskId)?.gameActivity?.type).toBe(type);
      }
      await expect(
        library.user!.setActivity({ type: 1, details: 'Streaming', url: 'https://twitch.tv/x' }),
      ).rejects.toMatchObject({ code: 4000 });
      await library.user!.clearActivity();
      await until(() => watcher.client.getUser(deskId)?.gameActivity === undefined, 'the activity cleared');
    } finally {
      await library.destroy();
      if (previousRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = previousRuntimeDir;
    }
  });
});
