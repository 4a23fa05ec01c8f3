/**
 * What the SDK needs from the local client beyond the published commands (PROTOCOL.md §12.5–12.7): AUTHORIZE_REQUEST,
 * ACTIVITY_INVITE, OPEN_MESSAGE, OPEN_CONNECTED_GAMES_SETTINGS, SET_SHOWING_CHAT, REGISTER_LAUNCH_COMMAND for another
 * application or a Steam game, and a restart of the local client. Over a real Unix socket.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../support/platform.js';
import { api, connect, tokenFor } from '../support/social.js';
import { IpcClient } from './ipc-client.js';
import { deskFriend, LINKS, startRpcPlatform, type RpcPlatform } from './harness.js';

describe.each(LINKS)(
  'local RPC: the desktop requests the SDK makes (PROTOCOL.md §12.5–12.7), %s local client',
  (link) => {
    let env: RpcPlatform;
    let apps = 0;
    const newApp = async () => {
      const name = `Desktop Game ${process.pid} ${++apps}`;
      return { ...(await createApp(env.platform, { name, public_client: true })), name };
    };
    const game = async (appId: string) => (await IpcClient.ready(env.rpc.path, appId)).client;

    beforeAll(async () => {
      env = await startRpcPlatform({}, {}, link);
    });
    afterAll(() => env.close());

    it('AUTHORIZE_REQUEST reaches the subscribed games of the application only, and is not kept for later', async () => {
      const app = await newApp();
      const other = await newApp();
      const listening = await game(app.id);
      const notSubscribed = await game(app.id);
      const otherApp = await game(other.id);
      expect(env.rpc.requestAuthorize(app.id)).toBe(0); // nobody subscribed yet: nothing kept
      expect(await listening.request('SUBSCRIBE', {}, 'AUTHORIZE_REQUEST')).toMatchObject({
        cmd: 'SUBSCRIBE',
        evt: 'AUTHORIZE_REQUEST',
        data: { evt: 'AUTHORIZE_REQUEST' },
      });
      await otherApp.request('SUBSCRIBE', {}, 'AUTHORIZE_REQUEST');
      expect(env.rpc.requestAuthorize(app.id)).toBe(1);
      expect(await listening.event('AUTHORIZE_REQUEST')).toEqual({
        cmd: 'DISPATCH',
        evt: 'AUTHORIZE_REQUEST',
        data: {},
      });
      // A round trip: nothing queued before it.
      expect((await notSubscribed.request('SET_SHOWING_CHAT', { showing: false })).evt).toBeNull();
      expect(notSubscribed.queued()).toEqual([]);
      expect(otherApp.queued()).toEqual([]);
      await listening.request('UNSUBSCRIBE', {}, 'AUTHORIZE_REQUEST');
      expect(env.rpc.requestAuthorize(app.id)).toBe(0);
      await Promise.all([listening.close(), notSubscribed.close(), otherApp.close()]);
    });

    it('ACTIVITY_INVITE: an invite to join sent to the desktop user reaches its subscribed game with the sender and activity', async () => {
      const app = await newApp();
      const friend = await deskFriend(env);
      const token = await tokenFor(env.platform, friend, app.id);
      const session = await connect(env.platform, friend, token);
      const activity = {
        type: 0,
        state: 'Lobby',
        party: { id: 'p-invite', size: [1, 4] },
        secrets: { join: 'join-invite' },
      };
      expect((await api(env.platform, token, 'POST', '/users/@me/presence', { activity })).status).toBeLessThan(300);
      const client = await game(app.id);
      await client.request('SUBSCRIBE', {}, 'ACTIVITY_INVITE');
      const sent = await api(env.platform, token, 'POST', `/users/${env.desk.id}/activity-invites`, { type: 1 });
      expect(sent.status, sent.text).toBe(201);
      const event = await client.event('ACTIVITY_INVITE');
      expect(event.data).toMatchObject({
        type: 1,
        user: { id: friend.id },
        message_id: sent.body.message_id,
        channel_id: sent.body.channel_id,
      });
      expect(event.data.activity).toMatchObject({ state: 'Lobby', party: { id: 'p-invite' } });
      await client.close();
      await session.client.close();
    });

    it("OPEN_MESSAGE records a message the desktop user can see; another's message, a bad id or a missing one is refused", async () => {
      const app = await newApp();
      const friend = await deskFriend(env);
      const stranger = await deskFriend(env);
      const toDesk = await api(env.platform, friend.token, 'POST', `/users/${env.desk.id}/messages`, {
        content: 'look at this',
      });
      expect(toDesk.status, toDesk.text).toBeLessThan(300);
      const between = await api(env.platform, friend.token, 'POST', `/users/${stranger.id}/messages`, {
        content: 'not for desk',
      });
      const client = await game(app.id);
      const before = env.rpc.desktop.actions.length;
      expect(await client.request('OPEN_MESSAGE', { message_id: toDesk.body.id })).toMatchObject({
        evt: null,
        data: null,
      });
      expect(env.rpc.desktop.actions.slice(before)).toEqual([
        { kind: 'open-message', applicationId: app.id, messageId: toDesk.body.id, channelId: null },
      ]);
      for (const args of [{ message_id: between.body.id }, { message_id: '999999' }, { message_id: 'abc' }, {}]) {
        const answer = await client.request('OPEN_MESSAGE', args);
        expect(answer.evt, JSON.stringify(args)).toBe('ERROR');
        expect(answer.data.code).toBe(4000);
      }
      expect((await client.request('OPEN_MESSAGE', { message_id: between.body.id })).data.message).toBe(
        'Unknown Message',
      );
      expect(env.rpc.desktop.actions.length).toBe(before + 1); // refusals record nothing
      await client.close();
    });

    it('OPEN_CONNECTED_GAMES_SETTINGS is recorded; SET_SHOWING_CHAT holds while the game is connected', async () => {
      const app = await newApp();
      const client = await game(app.id);
      expect((await client.request('OPEN_CONNECTED_GAMES_SETTINGS')).evt).toBeNull();
      expect(env.rpc.desktop.actions.at(-1)).toEqual({ kind: 'open-connected-games-settings', applicationId: app.id });
      expect(env.rpc.desktop.showingChat(app.id)).toBe(false);
      expect((await client.request('SET_SHOWING_CHAT', { showing: true })).data).toEqual({ showing: true });
      expect(env.rpc.desktop.showingChat(app.id)).toBe(true);
      expect((await client.request('SET_SHOWING_CHAT', { showing: 'yes' })).data.code).toBe(4000);
      expect(env.rpc.desktop.showingChat(app.id)).toBe(true); // a refused change changes nothing
      await client.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(env.rpc.desktop.showingChat(app.id)).toBe(false); // it went with the game
    });

    it('REGISTER_LAUNCH_COMMAND for another application and for a Steam game (no URL appended); unknown application 4007', async () => {
      const launcher = await newApp();
      const target = await newApp();
      const client = await game(launcher.id);
      const forTarget = await client.request('REGISTER_LAUNCH_COMMAND', {
        application_id: target.id,
        command: '/opt/target/run',
      });
      expect(forTarget.data).toMatchObject({ application_id: target.id, command: '/opt/target/run' });
      expect(env.rpc.launches.command(target.id)).toBe('/opt/target/run');
      expect(env.rpc.launches.command(launcher.id)).toBeUndefined();

      const steam = await client.request('REGISTER_LAUNCH_COMMAND', { steam_app_id: 480 });
      expect(steam.data).toMatchObject({ application_id: launcher.id, command: 'xdg-open steam://rungameid/480' });
      const entry = readFileSync(join(env.dir, 'applications', `discord-${launcher.id}.desktop`), 'utf8');
      expect(entry).toContain('Exec=xdg-open steam://rungameid/480\n');

      expect((await client.request('REGISTER_LAUNCH_COMMAND', { application_id: '1', command: 'x' })).data.code).toBe(
        4007,
      );
      for (const bad of [{ steam_app_id: 0 }, { steam_app_id: 1, command: 'x' }, { command: 'x', extra: 1 }]) {
        expect((await client.request('REGISTER_LAUNCH_COMMAND', bad)).data.code, JSON.stringify(bad)).toBe(4000);
      }
      await client.close();
    });

    it('a restart disconnects every game, forgets launch commands, and serves again on the same path', async () => {
      const app = await newApp();
      const client = await game(app.id);
      await client.request('REGISTER_LAUNCH_COMMAND', { command: '/opt/game' });
      const path = env.rpc.path;
      expect(await env.rpc.restart()).toBe(path);
      await client.ended;
      expect(env.rpc.launches.command(app.id)).toBeUndefined();
      const again = await game(app.id);
      expect((await again.request('SET_SHOWING_CHAT', { showing: true })).data).toEqual({ showing: true });
      await again.close();
    });
  },
);
