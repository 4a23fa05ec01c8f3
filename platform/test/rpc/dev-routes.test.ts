/**
 * The local client's development routes (PROTOCOL.md §9): what the desktop user does in the desktop UI, over HTTP,
 * for a platform started by the CLI. A raw game on the real Unix socket sees the effect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { createApp, devTokenHeaders, startTestPlatform } from '../support/platform.js';
import { api, connect, tokenFor } from '../support/social.js';
import { IpcClient } from './ipc-client.js';
import { deskFriend, startRpcPlatform, type RpcPlatform } from './harness.js';

describe('local client development routes (PROTOCOL.md §9)', () => {
  let env: RpcPlatform;
  const dev = (method: string, path: string, json?: unknown) =>
    request(`${env.platform.apiBase}/dev/rpc/${path}`, {
      method,
      headers: devTokenHeaders(env.platform),
      ...(json !== undefined && { json }),
    });

  beforeAll(async () => {
    env = await startRpcPlatform();
  });
  afterAll(() => env.close());

  it('authorize-request reaches the subscribed game; a bad application id is a field error', async () => {
    const app = await createApp(env.platform, { name: `Dev Route Game ${process.pid}`, public_client: true });
    const { client } = await IpcClient.ready(env.rpc.path, app.id);
    expect((await dev('POST', 'authorize-request', { application_id: app.id })).body).toEqual({ delivered: 0 });
    await client.request('SUBSCRIBE', {}, 'AUTHORIZE_REQUEST');
    expect((await dev('POST', 'authorize-request', { application_id: app.id })).body).toEqual({ delivered: 1 });
    expect((await client.event('AUTHORIZE_REQUEST')).data).toEqual({});
    const bad = await dev('POST', 'authorize-request', { application_id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(50035);
    await client.close();
  });

  it('accept-invite delivers the join secret to the game without echoing it; an unknown message is 404 10008', async () => {
    const app = await createApp(env.platform, { name: `Dev Route Join ${process.pid}`, public_client: true });
    const host = await deskFriend(env);
    const token = await tokenFor(env.platform, host, app.id);
    const session = await connect(env.platform, host, token);
    const activity = { type: 0, party: { id: 'dev-party', size: [1, 4] }, secrets: { join: 'dev-join' } };
    await api(env.platform, token, 'POST', '/users/@me/presence', { activity });
    const invite = await api(env.platform, token, 'POST', `/users/${env.desk.id}/activity-invites`, { type: 1 });
    const { client } = await IpcClient.ready(env.rpc.path, app.id);
    await client.request('SUBSCRIBE', {}, 'ACTIVITY_JOIN');
    const accepted = await dev('POST', 'accept-invite', { message_id: invite.body.message_id });
    expect(accepted.body).toEqual({ application_id: app.id, delivery: 'delivered' });
    expect((await client.event('ACTIVITY_JOIN')).data).toEqual({ secret: 'dev-join' });
    const unknown = await dev('POST', 'accept-invite', { message_id: '1' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 10008]);
    await client.close();
    await session.client.close();
  });

  it('desktop lists what games asked for; restart serves again on the same path', async () => {
    const app = await createApp(env.platform, { name: `Dev Route Desk ${process.pid}`, public_client: true });
    const { client } = await IpcClient.ready(env.rpc.path, app.id);
    await client.request('OPEN_CONNECTED_GAMES_SETTINGS');
    await client.request('SET_SHOWING_CHAT', { showing: true });
    const desktop = (await dev('GET', 'desktop')).body;
    expect(desktop.path).toBe(env.rpc.path);
    expect(desktop.actions).toContainEqual({ kind: 'open-connected-games-settings', applicationId: app.id });
    expect(desktop.showing_chat).toEqual([app.id]);
    expect((await dev('POST', 'restart', {})).body).toEqual({ path: env.rpc.path });
    await client.ended;
    expect((await dev('GET', 'desktop')).body.showing_chat).toEqual([]);
  });

  it('answer 404 while the local client does not run', async () => {
    const platform = await startTestPlatform();
    try {
      const response = await request(`${platform.apiBase}/dev/rpc/desktop`, { headers: devTokenHeaders(platform) });
      expect(response.status).toBe(404);
      expect(response.body.message).toContain('The local client is not running');
    } finally {
      await platform.close();
    }
  });
});
