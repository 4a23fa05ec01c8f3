import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { createApp, eventually, pkcePair } from '../support/platform.js';
import { api, connect, drain, fullUser, received, tokenFor } from '../support/social.js';
import { IpcClient } from './ipc-client.js';
import { deskFriend, LINKS, startRpcPlatform, type RpcPlatform } from './harness.js';

const JOINABLE = {
  type: 0,
  state: 'In a match',
  party: { id: 'party-1', size: [1, 4] },
  secrets: { join: 'join-secret-1', spectate: 'watch-secret-1' },
};

describe.each(LINKS)('local RPC commands and events (PROTOCOL.md §12.4–12.6), %s local client', (link) => {
  let env: RpcPlatform;
  let apps = 0;
  /** Every test gets its own application: the desktop user's activity is per application. */
  const newApp = async (config: Record<string, unknown> = {}) => {
    const name = `RPC Game ${process.pid} ${++apps}`;
    return { ...(await createApp(env.platform, { name, public_client: true, ...config })), name };
  };
  const game = async (appId: string) => (await IpcClient.ready(env.rpc.path, appId)).client;
  /** A new application's game connection, and a friend of the desktop user watching over the gateway. */
  const watchedGame = async () => {
    const app = await newApp();
    const watcher = await connect(env.platform, await deskFriend(env));
    const client = await game(app.id);
    return { app, watcher, client };
  };
  /**
   * A friend of the desktop user playing the application with a joinable activity, optionally inviting the desktop
   * user.
   */
  const host = async (appId: string, join: string, invite: boolean) => {
    const user = await deskFriend(env);
    const token = await tokenFor(env.platform, user, appId);
    const session = await connect(env.platform, user, token);
    await api(env.platform, token, 'POST', '/users/@me/presence', {
      activity: { ...JOINABLE, secrets: { ...JOINABLE.secrets, join } },
    });
    const sent = invite
      ? await api(env.platform, token, 'POST', `/users/${env.desk.id}/activity-invites`, { type: 1 })
      : undefined;
    if (sent) expect(sent.status, sent.text).toBe(201);
    return { user, session, inviteId: sent?.body.message_id as string };
  };

  beforeAll(async () => {
    env = await startRpcPlatform({}, {}, link);
  });
  afterAll(() => env.close());

  it('SET_ACTIVITY of types 0, 2, 3 and 5 reaches a friend over the gateway; the response is the stored activity', async () => {
    const { app, watcher, client } = await watchedGame();
    await drain(env.platform, watcher);
    for (const type of [0, 2, 3, 5]) {
      const answer = await client.request('SET_ACTIVITY', {
        pid: 4242,
        activity: { type, details: `type ${type}`, timestamps: { start: 1_700_000_000 } },
      });
      const stored = {
        type,
        details: `type ${type}`,
        timestamps: { start: 1_700_000_000_000 },
        name: app.name,
        application_id: app.id,
        created_at: expect.any(Number),
      };
      expect(answer).toEqual({ cmd: 'SET_ACTIVITY', evt: null, nonce: expect.any(String), data: stored });
      const updates = (await received(env.platform, watcher, 'PRESENCE_UPDATE')) as Array<{
        user: { id: string };
        activities: unknown[];
      }>;
      expect(updates.at(-1)).toEqual({
        user: { id: env.desk.id },
        status: 'online',
        activities: [stored],
        client_status: { desktop: 'online' },
      });
    }
    await client.close();
    await watcher.client.close();
  });

  it('SET_ACTIVITY without a type sets Playing (0), as the published service and its own example do', async () => {
    const { app, watcher, client } = await watchedGame();
    await drain(env.platform, watcher);
    const answer = await client.request('SET_ACTIVITY', {
      pid: 4242,
      activity: { details: 'No type', state: 'In the menu', instance: false },
    });
    expect(answer.evt).toBeNull();
    expect(answer.data).toMatchObject({ type: 0, details: 'No type', name: app.name, application_id: app.id });
    const updates = (await received(env.platform, watcher, 'PRESENCE_UPDATE')) as Array<{ activities: unknown[] }>;
    expect(updates.at(-1)?.activities).toEqual([expect.objectContaining({ type: 0, details: 'No type' })]);
    await client.close();
    await watcher.client.close();
  });

  it('SET_ACTIVITY refuses types 1 and 4, invalid fields and a missing pid with 4000, and changes nothing', async () => {
    const { watcher, client } = await watchedGame();
    await drain(env.platform, watcher);
    const cases: Array<[unknown, string]> = [
      [{ pid: 1, activity: { type: 1, url: 'https://twitch.tv/x' } }, 'args.activity.type:'],
      [{ pid: 1, activity: { type: 4, state: 'custom' } }, 'args.activity.type:'],
      [{ pid: 1, activity: { type: 0, state: 'x' } }, 'args.activity.state:'],
      [
        {
          pid: 1,
          activity: {
            type: 0,
            buttons: [
              { label: 'a', url: 'b' },
              { label: 'a', url: 'b' },
              { label: 'a', url: 'b' },
            ],
          },
        },
        'args.activity.buttons:',
      ],
      [{ activity: { type: 0 } }, 'args.pid:'],
      [{ pid: -1 }, 'args.pid:'],
    ];
    for (const [args, prefix] of cases) {
      const answer = await client.request('SET_ACTIVITY', args);
      expect(answer.evt).toBe('ERROR');
      expect(answer.data.code).toBe(4000);
      expect(answer.data.message.startsWith(prefix), answer.data.message).toBe(true);
    }
    expect(await received(env.platform, watcher, 'PRESENCE_UPDATE')).toEqual([]);
    await client.close();
    await watcher.client.close();
  });

  it('SET_ACTIVITY with an unpaired surrogate (state "a\\ud800b") is refused with 4000 like an HTTP body: nothing stored, nothing relayed to friends', async () => {
    const { watcher, client } = await watchedGame();
    await client.request('SET_ACTIVITY', { pid: 1, activity: { type: 0, state: 'Before' } });
    await drain(env.platform, watcher);
    for (const activity of [
      { type: 0, state: 'a\ud800b' },
      { type: 0, details: '\udc00' },
      { type: 0, party: { id: 'p\ud800' } },
    ]) {
      const answer = await client.request('SET_ACTIVITY', { pid: 1, activity });
      expect(answer.evt).toBe('ERROR');
      expect(answer.data).toEqual({
        code: 4000,
        message: expect.stringMatching(/^args\.activity\.(state|details|party\.id): Must be valid Unicode text/),
      });
    }
    expect(await received(env.platform, watcher, 'PRESENCE_UPDATE')).toEqual([]);
    await client.close();
    await watcher.client.close();
  });

  it('SET_ACTIVITY without an activity clears it; a game leaving clears its activity and the desktop user goes offline', async () => {
    const { watcher, client } = await watchedGame();
    await client.request('SET_ACTIVITY', { pid: 1, activity: { type: 0, state: 'Playing' } });
    await drain(env.platform, watcher);
    expect((await client.request('SET_ACTIVITY', { pid: 1 })).data).toBeNull();
    expect(await received(env.platform, watcher, 'PRESENCE_UPDATE')).toEqual([
      { user: { id: env.desk.id }, status: 'online', activities: [], client_status: { desktop: 'online' } },
    ]);
    await client.request('SET_ACTIVITY', { pid: 1, activity: { type: 3, state: 'Watching' } });
    await drain(env.platform, watcher);
    await client.close();
    await eventually(async () => {
      const updates = (await received(env.platform, watcher, 'PRESENCE_UPDATE')) as Array<{ status: string }>;
      return updates.some((update) => update.status === 'offline');
    });
    await watcher.client.close();
  });

  it('a game and a gateway session of the same application: the game leaving keeps the desktop user online', async () => {
    const app = await newApp();
    const friend = await deskFriend(env);
    const watcher = await connect(env.platform, friend);
    const deskToken = await tokenFor(env.platform, env.desk, app.id);
    const client = await game(app.id);
    const deskSession = await connect(env.platform, env.desk, deskToken);
    await client.request('SET_ACTIVITY', { pid: 1, activity: { type: 0, state: 'Both' } });
    await drain(env.platform, watcher);
    await client.close();
    const updates = (await eventually(async () => {
      const got = (await received(env.platform, watcher, 'PRESENCE_UPDATE')) as Array<{
        status: string;
        activities: unknown[];
      }>;
      return got.length > 0 ? got : undefined;
    })) as Array<{ status: string; activities: unknown[] }>;
    // The game's activity went with it; the gateway session still holds the pair, so nobody saw "offline".
    expect(updates).toEqual([
      { user: { id: env.desk.id }, status: 'online', activities: [], client_status: { desktop: 'online' } },
    ]);
    await deskSession.client.close();
    await watcher.client.close();
  });

  it('AUTHORIZE waits for the desktop user; approved, it answers a code the token endpoint redeems with PKCE', async () => {
    const app = await newApp();
    const client = await game(app.id);
    const { verifier, challenge } = pkcePair();
    const answer = client.request('AUTHORIZE', {
      client_id: app.id,
      scopes: ['identify', 'sdk.social_layer'],
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const pending = await eventually(() =>
      env.rpc.consent.pending().find((request) => request.applicationId === app.id),
    );
    expect(pending).toEqual({
      id: expect.any(Number),
      applicationId: app.id,
      applicationName: expect.any(String),
      scopes: ['identify', 'sdk.social_layer'],
    });
    expect(env.rpc.consent.approve(pending.id)).toBe(true);
    const { data } = await answer;
    expect(data).toEqual({ code: expect.any(String) });
    const token = await request(`${env.platform.apiBase}/oauth2/token`, {
      form: { grant_type: 'authorization_code', code: data.code, code_verifier: verifier, client_id: app.id },
    });
    expect(token.status, token.text).toBe(200);
    const me = await request(`${env.platform.apiBase}/users/@me`, {
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(me.body.id).toBe(env.desk.id);
    await client.close();
  });

  it('AUTHORIZE denied is error 5000; a request whose game disconnects is withdrawn', async () => {
    const app = await newApp();
    const client = await game(app.id);
    const answer = client.request('AUTHORIZE', { client_id: app.id, scopes: ['identify'] });
    const pending = await eventually(() =>
      env.rpc.consent.pending().find((request) => request.applicationId === app.id),
    );
    env.rpc.consent.deny(pending.id);
    expect((await answer).data).toEqual({
      code: 5000,
      message: 'OAuth2 Error: access_denied: The user denied the request.',
    });
    void client.request('AUTHORIZE', { client_id: app.id, scopes: ['identify'] }).catch(() => undefined);
    await eventually(() => env.rpc.consent.pending().find((request) => request.applicationId === app.id));
    await client.close();
    await eventually(() => !env.rpc.consent.pending().some((request) => request.applicationId === app.id));
  });

  it('AUTHORIZE errors: another client id 4007, no scopes 4000, unknown scope and bad PKCE method 5000', async () => {
    const app = await newApp();
    const client = await game(app.id);
    expect(
      (await client.request('AUTHORIZE', { client_id: env.platform.devApp.id, scopes: ['identify'] })).data,
    ).toEqual({ code: 4007, message: 'Invalid Client ID' });
    expect((await client.request('AUTHORIZE', { client_id: app.id, scopes: [] })).data.code).toBe(4000);
    expect((await client.request('AUTHORIZE', { client_id: app.id, scopes: ['rpc.everything'] })).data).toEqual({
      code: 5000,
      message: 'OAuth2 Error: invalid_scope: Invalid scope: rpc.everything',
    });
    expect(
      (
        await client.request('AUTHORIZE', {
          client_id: app.id,
          scopes: ['identify'],
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'plain',
        })
      ).data,
    ).toEqual({
      code: 5000,
      message: 'OAuth2 Error: invalid_request: code_challenge_method must be S256.',
    });
    expect(
      (
        await client.request('AUTHORIZE', {
          client_id: app.id,
          scopes: ['identify'],
          redirect_uri: 'https://elsewhere.example/cb',
        })
      ).data.code,
    ).toBe(5000);
    expect(env.rpc.consent.pending().filter((request) => request.applicationId === app.id)).toEqual([]);
    await client.close();
  });

  it("AUTHENTICATE with the desktop user's token answers user, scopes, expiry and application; other tokens are refused", async () => {
    const app = await newApp();
    const client = await game(app.id);
    const deskToken = await tokenFor(env.platform, env.desk, app.id, 'identify guilds');
    const answer = await client.request('AUTHENTICATE', { access_token: deskToken });
    expect(answer.data).toEqual({
      user: expect.objectContaining({ id: env.desk.id, username: 'desk' }),
      scopes: ['identify', 'guilds'],
      expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      application: { id: app.id, name: expect.any(String), description: '', icon: null, rpc_origins: [] },
    });
    expect((await client.request('AUTHENTICATE', { access_token: 'nope' })).data).toEqual({
      code: 4009,
      message: 'Invalid access token',
    });
    // The dev app's token.
    expect((await client.request('AUTHENTICATE', { access_token: env.desk.token })).data.code).toBe(4009);
    const stranger = await fullUser(env.platform, { clientId: app.id });
    expect((await client.request('AUTHENTICATE', { access_token: stranger.token })).data).toEqual({
      code: 4010,
      message: 'The token belongs to another user',
    });
    expect((await client.request('AUTHENTICATE', {})).data.code).toBe(4000);
    await client.close();
  });

  it('SUBSCRIBE: unknown events 4004; GUILD_STATUS needs AUTHENTICATE with guilds (4006) and a guild of the user (4003), then sends its status', async () => {
    const app = await newApp();
    const client = await game(app.id);
    expect((await client.request('SUBSCRIBE', {}, 'VOICE_SETTINGS_UPDATE')).data).toEqual({
      code: 4004,
      message: 'Invalid event: VOICE_SETTINGS_UPDATE',
    });
    expect((await client.request('SUBSCRIBE', {})).data.code).toBe(4004);
    const guild = (
      await request(`${env.platform.apiBase}/dev/guilds`, { json: { name: `RPC Guild ${apps}`, members: ['desk'] } })
    ).body as { id: string; name: string };
    const other = (await request(`${env.platform.apiBase}/dev/guilds`, { json: { name: `Not Desk ${apps}` } }))
      .body as { id: string };
    expect((await client.request('SUBSCRIBE', { guild_id: guild.id }, 'GUILD_STATUS')).data).toEqual({
      code: 4006,
      message: 'Not authenticated or invalid scope',
    });
    await client.request('AUTHENTICATE', { access_token: await tokenFor(env.platform, env.desk, app.id, 'identify') });
    expect((await client.request('SUBSCRIBE', { guild_id: guild.id }, 'GUILD_STATUS')).data.code).toBe(4006);
    await client.request('AUTHENTICATE', {
      access_token: await tokenFor(env.platform, env.desk, app.id, 'identify guilds'),
    });
    expect((await client.request('SUBSCRIBE', { guild_id: other.id }, 'GUILD_STATUS')).data).toEqual({
      code: 4003,
      message: 'Invalid Guild',
    });
    expect((await client.request('SUBSCRIBE', { guild_id: 'x' }, 'GUILD_STATUS')).data.code).toBe(4003);
    expect(await client.request('SUBSCRIBE', { guild_id: guild.id }, 'GUILD_STATUS')).toEqual({
      cmd: 'SUBSCRIBE',
      evt: 'GUILD_STATUS',
      nonce: expect.any(String),
      data: { evt: 'GUILD_STATUS' },
    });
    expect(await client.event('GUILD_STATUS')).toEqual({
      cmd: 'DISPATCH',
      evt: 'GUILD_STATUS',
      data: { guild: { id: guild.id, name: guild.name, icon_url: null }, online: 0 },
    });
    expect((await client.request('UNSUBSCRIBE', { guild_id: guild.id }, 'GUILD_STATUS')).data).toEqual({
      evt: 'GUILD_STATUS',
    });
    expect((await client.request('UNSUBSCRIBE', {}, 'NOPE')).data.code).toBe(4004);
    await client.close();
  });

  it("ACTIVITY_JOIN_REQUEST: a friend's join request reaches subscribed games; SEND_ACTIVITY_JOIN_INVITE answers it with an invite the friend redeems", async () => {
    const app = await newApp();
    const friend = await deskFriend(env);
    const friendToken = await tokenFor(env.platform, friend, app.id);
    const friendSession = await connect(env.platform, friend, friendToken);
    const client = await game(app.id);
    const bystander = await game(app.id);
    await client.request('SET_ACTIVITY', { pid: 1, activity: JOINABLE });
    await client.request('SUBSCRIBE', {}, 'ACTIVITY_JOIN_REQUEST');
    const ask = await api(env.platform, friendToken, 'POST', `/users/${env.desk.id}/activity-invites`, { type: 5 });
    expect(ask.status, ask.text).toBe(201);
    const event = await client.event('ACTIVITY_JOIN_REQUEST');
    expect(event).toEqual({
      cmd: 'DISPATCH',
      evt: 'ACTIVITY_JOIN_REQUEST',
      data: { user: expect.objectContaining({ id: friend.id, username: friend.username }) },
    });
    // The other instance did not subscribe: it got nothing.
    await bystander.request('SET_ACTIVITY', { pid: 2, activity: JOINABLE });
    expect(bystander.queued()).toEqual([]);
    await drain(env.platform, friendSession);
    expect((await client.request('SEND_ACTIVITY_JOIN_INVITE', { user_id: friend.id })).data).toBeNull();
    const [invite] = (await received(env.platform, friendSession, 'ACTIVITY_INVITE_CREATE')) as Array<{
      message_id: string;
      type: number;
      sender_id: string;
    }>;
    expect(invite).toMatchObject({ type: 1, sender_id: env.desk.id });
    const accepted = await api(
      env.platform,
      friendToken,
      'POST',
      `/users/@me/activity-invites/${invite!.message_id}/accept`,
    );
    expect(accepted.body).toEqual({ secret: 'join-secret-1' });
    expect((await client.request('CLOSE_ACTIVITY_REQUEST', { user_id: friend.id })).data).toBeNull();
    expect((await client.request('CLOSE_ACTIVITY_JOIN_REQUEST', { user_id: friend.id })).data).toBeNull();
    for (const c of [client, bystander]) await c.close();
    await friendSession.client.close();
  });

  it('SEND_ACTIVITY_JOIN_INVITE and CLOSE_ACTIVITY_REQUEST: unknown user 4010; an activity that cannot be joined 4000 (80020)', async () => {
    const app = await newApp();
    const friend = await deskFriend(env);
    const client = await game(app.id);
    expect((await client.request('SEND_ACTIVITY_JOIN_INVITE', { user_id: '1' })).data).toEqual({
      code: 4010,
      message: 'Invalid User',
    });
    expect((await client.request('CLOSE_ACTIVITY_REQUEST', { user_id: 'abc' })).data).toEqual({
      code: 4010,
      message: 'Invalid User',
    });
    expect((await client.request('SEND_ACTIVITY_JOIN_INVITE', {})).data.code).toBe(4000);
    expect((await client.request('SEND_ACTIVITY_JOIN_INVITE', { user_id: friend.id })).data).toEqual({
      code: 4000,
      message: 'The activity cannot be joined (80020)',
    });
    await client.close();
  });

  it('ACTIVITY_JOIN: the desktop user accepting an invite delivers the join secret to the running, subscribed game', async () => {
    const app = await newApp();
    const hosting = await host(app.id, 'host-join', true);
    const client = await game(app.id);
    await client.request('SUBSCRIBE', {}, 'ACTIVITY_JOIN');
    expect(await env.rpc.acceptInvite(hosting.inviteId, app.id)).toEqual({
      secret: 'host-join',
      applicationId: app.id,
      delivery: 'delivered',
    });
    expect(await client.event('ACTIVITY_JOIN')).toEqual({
      cmd: 'DISPATCH',
      evt: 'ACTIVITY_JOIN',
      data: { secret: 'host-join' },
    });
    await expect(env.rpc.acceptInvite('1')).rejects.toThrow('Unknown Message');
    await client.close();
    await hosting.session.client.close();
  });

  it("ACTIVITY_SPECTATE: spectating a friend's activity delivers its spectate secret (in process; refused standalone)", async () => {
    const app = await newApp();
    const hosting = await host(app.id, 'join-secret-1', false);
    const client = await game(app.id);
    await client.request('SUBSCRIBE', {}, 'ACTIVITY_SPECTATE');
    if (link === 'standalone') {
      // A friend's presence carries no secrets (PROTOCOL.md §10.2): a local client outside the platform cannot know it.
      await expect(env.rpc.spectate(hosting.user.id, app.id)).rejects.toThrow(
        'only available from the local client started with the platform',
      );
    } else {
      expect(await env.rpc.spectate(hosting.user.id, app.id)).toEqual({
        secret: 'watch-secret-1',
        delivery: 'delivered',
      });
      expect(await client.event('ACTIVITY_SPECTATE')).toEqual({
        cmd: 'DISPATCH',
        evt: 'ACTIVITY_SPECTATE',
        data: { secret: 'watch-secret-1' },
      });
      await expect(env.rpc.spectate(env.desk.id, app.id)).rejects.toThrow('the activity has no spectate secret');
    }
    await client.close();
    await hosting.session.client.close();
  });

  it('REGISTER_LAUNCH_COMMAND writes a .desktop entry handling discord-<id>://', async () => {
    const app = await newApp();
    const client = await game(app.id);
    const answer = await client.request('REGISTER_LAUNCH_COMMAND', { command: '/opt/game/run --fullscreen' });
    const file = join(env.dir, 'applications', `discord-${app.id}.desktop`);
    expect(answer.data).toEqual({ application_id: app.id, command: '/opt/game/run --fullscreen', desktop_entry: file });
    const entry = readFileSync(file, 'utf8');
    expect(entry).toContain('[Desktop Entry]\nType=Application\n');
    expect(entry).toContain('Exec=/opt/game/run --fullscreen %u\n');
    expect(entry).toContain(`MimeType=x-scheme-handler/discord-${app.id};\n`);
    expect(env.rpc.launches.command(app.id)).toBe('/opt/game/run --fullscreen');
    expect((await client.request('REGISTER_LAUNCH_COMMAND', { command: '' })).data.code).toBe(4000);
    await client.close();
  });

  it('a join while the game is not running starts its launch command; the started game receives the secret', async () => {
    const app = await newApp();
    const hosting = await host(app.id, 'launch-secret', true);
    const result = join(env.dir, `launched-${app.id}.json`);
    const fixture = fileURLToPath(new URL('./fixtures/join-game.mjs', import.meta.url));
    env.rpc.launches.register(app.id, 'Launch Test', `'${process.execPath}' '${fixture}' ${app.id} '${result}'`);
    expect((await env.rpc.acceptInvite(hosting.inviteId, app.id)).delivery).toBe('launched');
    await eventually(() => existsSync(result) && readFileSync(result, 'utf8').length > 0);
    expect(JSON.parse(readFileSync(result, 'utf8'))).toEqual({ secret: 'launch-secret', url: `discord-${app.id}://` });
    await hosting.session.client.close();
  });

  it('a join with no game and no launch command is kept for the game', async () => {
    const app = await newApp();
    const hosting = await host(app.id, 'kept-secret', true);
    expect((await env.rpc.acceptInvite(hosting.inviteId, app.id)).delivery).toBe('queued');
    const client = await game(app.id);
    await client.request('SUBSCRIBE', {}, 'ACTIVITY_JOIN');
    expect((await client.event('ACTIVITY_JOIN')).data).toEqual({ secret: 'kept-secret' });
    await client.close();
    await hosting.session.client.close();
  });
});
