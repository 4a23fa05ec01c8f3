/**
 * The local platform client, end to end on both backends: the real platform with its local client on a real Unix
 * socket in a temporary directory, and SDK clients that find it through ClientCreateOptions.IpcPath. The desktop user
 * ("desk") plays the game; a friend ("host") invites them. Both the link request and the join survive a restart of
 * the local client: the SDK reconnects by itself, subscribes again and replays what the game registered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityActionTypes, ActivityTypes, Client } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import { startE2EPlatform, type E2EPlatform } from './harness.js';
import { fullPlayer } from './social-support.js';
import { closeAll, type Player } from './player.js';
import { e2eClient, signIn, until } from './support.js';

const DESK = 'desk';

describe.each(BACKENDS)('the local platform client over %s', (backend) => {
  let dir: string;
  let e2e: E2EPlatform;
  let rpc: NonNullable<E2EPlatform['platform']['rpc']>;
  let appId: bigint;
  const clients: Client[] = [];
  const players: Player[] = [];

  /** A client of the dev application pointed at this test's local client (or at `ipcPath`). */
  const gameClient = (ipcPath = rpc.path) => {
    const client = e2eClient(e2e, backend, { ipcPath });
    clients.push(client);
    return client;
  };
  /** The desktop user's game, signed in and connected to Ready. */
  const deskGame = async (ipcPath?: string) => {
    const client = gameClient(ipcPath);
    const { tokens } = await signIn(e2e, client, DESK);
    await client.updateToken(tokens.accessToken);
    await client.connect();
    return client;
  };
  /** A new full account, befriended with the desktop user (through the SDK on both sides). */
  const deskFriend = async (desk: Client, username: string) => {
    const player = await fullPlayer(e2e, backend, username);
    players.push(player);
    await player.client.sendPlatformFriendRequest(DESK);
    await until(() => desk.getRelationship(player.id) !== undefined, 'the friend request reaches desk');
    await desk.acceptPlatformFriendRequest(player.id);
    return player;
  };
  /** Asks for linking until a subscribed game got it (the SDK subscribes on its own once connected). */
  const requestLinking = () =>
    until(() => rpc.requestAuthorize(String(appId)) > 0, 'a game subscribed to AUTHORIZE_REQUEST');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svcpp-rpc-e2e-'));
    e2e = await startE2EPlatform({
      config: { users: [{ username: DESK, global_name: 'Desk' }] },
      rpc: { user: DESK, socketDir: dir, applicationsDir: join(dir, 'applications') },
    });
    rpc = e2e.platform.rpc!;
    appId = BigInt(e2e.platform.devApp.id);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await closeAll(...players);
    await e2e?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the local client asks the game to link: the authorize-request callback fires, authorize() completes; again after a restart', async () => {
    const client = gameClient();
    let requests = 0;
    client.on('authorizeRequest', () => requests++);
    await requestLinking();
    await until(() => requests === 1, 'the authorize-request callback');
    const { tokens } = await signIn(e2e, client, DESK);
    expect(tokens.accessToken).not.toBe('');

    await rpc.restart();
    await requestLinking(); // the SDK reconnected and subscribed again by itself
    await until(() => requests === 2, 'the authorize-request callback after the restart');

    // Without a listener the SDK unsubscribes: the local client has nobody to ask.
    client.removeAllListeners('authorizeRequest');
    await until(() => rpc.requestAuthorize(String(appId)) === 0, 'the game to unsubscribe');
  });

  it('a join from the local client fires the join callbacks with the secret; again after a restart', async () => {
    const desk = await deskGame();
    const host = await deskFriend(desk, `host_rpc_${backend}`);
    await host.client.updateRichPresence({
      type: ActivityTypes.Playing,
      state: 'In a match',
      party: { id: `party-${backend}`, currentSize: 1, maxSize: 4 },
      secrets: { join: `join-${backend}` },
    });
    const invites: bigint[] = [];
    desk.on(
      'activityInviteCreated',
      (invite) => invite.type === ActivityActionTypes.Join && invites.push(invite.messageId),
    );
    await host.client.sendActivityInvite(await userIdOf(desk), 'come');
    await until(() => invites.length === 1, 'the invite');

    const joins: string[] = [];
    const withApp: Array<[bigint, string]> = [];
    desk.on('activityJoin', (secret) => joins.push(secret));
    desk.on('activityJoinWithApplication', (applicationId, secret) => withApp.push([applicationId, secret]));
    // The desktop user presses "Join": delivered at once to a subscribed game, else kept until it subscribes.
    expect(['delivered', 'queued']).toContain((await rpc.acceptInvite(String(invites[0]))).delivery);
    await until(() => joins.length === 1 && withApp.length === 1, 'the join callbacks');
    expect(joins).toEqual([`join-${backend}`]);
    expect(withApp).toEqual([[appId, `join-${backend}`]]);

    await rpc.restart();
    await rpc.acceptInvite(String(invites[0]));
    await until(() => joins.length === 2, 'the join callback after the restart');
    expect(joins[1]).toBe(`join-${backend}`);
    expect(withApp[1]).toEqual([appId, `join-${backend}`]);
  });

  it('with a local client: open a message, open the settings, the chat flag and launch commands — replayed after a restart', async () => {
    const desk = await deskGame();
    const friend = await deskFriend(desk, `friend_rpc_${backend}`);
    const messageId = await friend.client.sendUserMessage(await userIdOf(desk), 'look at this');
    await until(() => desk.canOpenMessageInPlatform(messageId), 'the DM in the cache');

    const before = rpc.desktop.actions.length;
    await desk.openMessageInPlatform(messageId);
    await desk.openConnectedGamesSettingsInPlatform();
    expect(rpc.desktop.actions.slice(before)).toEqual([
      {
        kind: 'open-message',
        applicationId: String(appId),
        messageId: String(messageId),
        channelId: expect.any(String),
      },
      { kind: 'open-connected-games-settings', applicationId: String(appId) },
    ]);
    // A message that is not cached:
    await expect(desk.openMessageInPlatform(123n)).rejects.toMatchObject({ code: 'ERR_SVCPP_VALIDATION' });

    const steamApp = 1234567n;
    desk.setShowingChat(true);
    desk.registerLaunchCommand(appId, '/opt/game/run');
    desk.registerLaunchSteamApplication(steamApp, 480);
    await until(
      () => rpc.desktop.showingChat(String(appId)) && rpc.launches.command(String(appId)) === '/opt/game/run',
      'the chat flag and the launch command',
    );
    expect(() => desk.registerLaunchCommand(0n, 'x')).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );
    expect(() => desk.registerLaunchSteamApplication(appId, 0)).toThrow(
      expect.objectContaining({ code: 'ERR_SVCPP_INVALID_ARGUMENT' }),
    );

    // A restart forgets both; the SDK tells the new instance again.
    await rpc.restart();
    expect(rpc.launches.command(String(appId))).toBeUndefined();
    await until(
      () => rpc.desktop.showingChat(String(appId)) && rpc.launches.command(String(appId)) === '/opt/game/run',
      'the replay after the restart',
    );
    desk.setShowingChat(false);
    await until(() => !rpc.desktop.showingChat(String(appId)), 'the chat flag cleared');
  });

  it('without a local client: the calls that need it fail with an RPC error, the others are kept for later', async () => {
    const missing = join(dir, 'nobody-listens-here');
    const desk = await deskGame(missing);
    const friend = await deskFriend(desk, `lonely_rpc_${backend}`);
    const messageId = await friend.client.sendUserMessage(await userIdOf(desk), 'hello');
    await until(() => desk.canOpenMessageInPlatform(messageId), 'the DM in the cache');

    await expect(desk.openMessageInPlatform(messageId)).rejects.toMatchObject({
      code: 'ERR_SVCPP_RPC',
      retryable: true,
    });
    await expect(desk.openConnectedGamesSettingsInPlatform()).rejects.toMatchObject({
      code: 'ERR_SVCPP_RPC',
      retryable: true,
    });
    // Kept: no error now; sent when a local client appears (the replay above shows that path).
    desk.setShowingChat(true);
    desk.registerLaunchCommand(appId, '');
    let requests = 0;
    desk.on('authorizeRequest', () => requests++);
    desk.on('activityJoin', () => requests++);
    expect(rpc.requestAuthorize(String(appId))).toBe(0); // this game never reached the local client
    expect(requests).toBe(0);
  });

  it('rich presence without a gateway session goes through the local client and reaches a friend; without one it needs Ready', async () => {
    const desk = await deskGame(); // only to befriend a watcher; the game below has no session
    const watcher = await deskFriend(desk, `watcher_rpc_${backend}`);
    const deskId = await userIdOf(desk);
    await desk.close();
    const game = gameClient();
    // The game has found the local client once it receives what it subscribed to.
    let asked = 0;
    game.on('authorizeRequest', () => asked++);
    await requestLinking();
    await until(() => asked > 0, 'the game connected to the local client');
    await game.updateRichPresence({ type: ActivityTypes.Playing, state: `Through the desktop ${backend}` });
    await until(
      () => watcher.client.getUser(deskId)?.gameActivity?.state === `Through the desktop ${backend}`,
      "the watcher sees desk's activity",
    );
    await expect(game.updateRichPresence({ type: ActivityTypes.Playing, state: 'x' })).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    }); // checked locally first
    game.clearRichPresence();
    await until(() => watcher.client.getUser(deskId)?.gameActivity === undefined, 'the activity cleared');

    const alone = gameClient(join(dir, 'nobody-listens-here'));
    await expect(alone.updateRichPresence({ type: ActivityTypes.Playing, state: 'Nobody' })).rejects.toMatchObject({
      code: 'ERR_SVCPP_CLIENT_NOT_READY',
    });
  });

  it('a provisional user: opening a message asks for a merge; the settings call succeeds doing nothing', async () => {
    const client = gameClient(join(dir, 'nobody-listens-here'));
    const token = await e2e.server.createProvisionalToken({ externalUserId: `rpc-provisional-${backend}` });
    await client.updateToken(token.accessToken);
    await client.connect();
    let merges = 0;
    await expect(client.openMessageInPlatform(42n, { onMergeRequired: () => merges++ })).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
    expect(merges).toBe(1);
    await client.openConnectedGamesSettingsInPlatform();
  });
});

async function userIdOf(client: Client): Promise<bigint> {
  await until(() => client.currentUser !== undefined, 'the current user');
  return client.currentUser!.id;
}
