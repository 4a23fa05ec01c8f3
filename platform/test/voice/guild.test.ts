/**
 * Guild voice channels (PROTOCOL.md §13.8) over real WebSocket and UDP: op 4 naming a guild voice channel joins its
 * call through the same voice gateway, relay and DAVE as lobby calls; the guild's bots see VOICE_STATE_UPDATE and
 * VOICE_CHANNEL_START_TIME_UPDATE; Get Current User Voice State / Get User Voice State read the state; refusals.
 */
import * as spec from 'discord-api-spec/zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RawClient } from '../gateway/client.js';
import { bearer, bot, request } from '../support/http.js';
import { accessTokenFor, createApp, createUser, eventually } from '../support/platform.js';
import { DavePeer } from '../support/dave-peer.js';
import { BOT_ROLE_PERMISSIONS, startBotPlatform, type BotFixture } from '../bot/fixture.js';
import { botCall, botSession, INTENTS } from '../bot/helpers.js';
import { TestVoiceClient } from '../support/voice-client.js';
import { AES, XCHACHA } from '../support/voice-crypto.js';
import { requestVoiceJoin } from '../support/voice-harness.js';
import type { Frame } from '../lobbies/harness.js';

const GUILD_VOICE_STATES = 1 << 7;
const CONNECT = 1n << 20n;
const KICK_MEMBERS = 1n << 1n;
const MANAGE_CHANNELS = 1n << 4n;
const voiceStateSchema = (
  spec as unknown as Record<string, { safeParse(value: unknown): { success: boolean; error?: unknown } } | undefined>
).VoiceStateResponseSchema!;
const opus = (n: number) => Buffer.from(`guild-frame-${n}`.padEnd(100, '.'));

let f: BotFixture;
const open: Array<{ close(): Promise<unknown> }> = [];

beforeAll(async () => {
  f = await startBotPlatform({ extra: { voice: { requireE2ee: false } } });
});
afterAll(() => f.platform.close());
// Closing every session ends its calls: the next test starts with nobody in voice.
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
});

/** A user's main-gateway session (an SDK token of the dev application that may also read its own voice state). */
async function userSession(
  username: string,
  app: { id: string; client_secret?: string } = { id: f.platform.devApp.id },
) {
  const login = {
    clientId: app.id,
    scope: 'sdk.social_layer guilds.members.read',
    user: username,
    ...(app.client_secret && { clientSecret: app.client_secret }),
  };
  const token = (await accessTokenFor(f.platform, login)).access_token;
  const client = await RawClient.open(f.platform.gatewayUrl, undefined, f.platform.caCertPem);
  open.push(client);
  const ready = (await client.identify(`Bearer ${token}`)) as Frame;
  return { client, token, sessionId: ready.d.session_id as string };
}

async function voiceJoin(client: RawClient, userId: string, channelId: string, mode = AES) {
  const { state, server, credentials } = await requestVoiceJoin(client, userId, channelId, {}, f.guildId);
  const voice = await TestVoiceClient.join(credentials, mode, f.platform.caCertPem ? { ca: f.platform.caCertPem } : {});
  open.push(voice);
  return { state, server, voice };
}

async function watcher() {
  const s = await botSession(f, INTENTS.GUILDS | GUILD_VOICE_STATES);
  open.push(s);
  await s.next('GUILD_CREATE');
  return s;
}

/** A fresh voice channel of the fixture's guild (so each test has its own call). */
async function voiceChannel(extra: Record<string, unknown> = {}): Promise<string> {
  const created = await botCall(f, 'POST', `/guilds/${f.guildId}/channels`, {
    name: `voice-${Math.random().toString(36).slice(2, 8)}`,
    type: 2,
    ...extra,
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** The next VOICE_JOIN_REFUSED of a raw session. */
async function refusal(client: RawClient): Promise<Frame['d']> {
  for (;;) {
    const frame = (await client.nextOf(0)) as Frame;
    if (frame.t === 'VOICE_JOIN_REFUSED') return frame.d;
  }
}

describe('guild voice channel calls', () => {
  it('members join a voice channel over the voice gateway and relay; the bot sees the states and the start time', async () => {
    const channelId = await voiceChannel();
    const s = await watcher();
    const alice = await userSession('alice');
    const bob = await userSession('bob');

    const a = await voiceJoin(alice.client, f.ownerId, channelId, AES);
    expect(a.state.d).toMatchObject({
      guild_id: f.guildId,
      channel_id: channelId,
      user_id: f.ownerId,
      session_id: alice.sessionId,
      member: { user: { id: f.ownerId } },
    });
    expect(a.state.d).not.toHaveProperty('lobby_id');
    expect(voiceStateSchema.safeParse(a.state.d).success).toBe(true);
    // Published VOICE_SERVER_UPDATE of a guild call: token, guild_id, endpoint.
    expect(a.server.d).toEqual({
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      guild_id: f.guildId,
      endpoint: f.platform.voice.endpoint,
    });

    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({
      guild_id: f.guildId,
      channel_id: channelId,
      user_id: f.ownerId,
      member: { user: { id: f.ownerId } },
    });
    const started = await s.next('VOICE_CHANNEL_START_TIME_UPDATE');
    expect(started).toEqual({ id: channelId, guild_id: f.guildId, voice_start_time: expect.any(Number) });

    // The second member joins the same call: the relay forwards media between them.
    const b = await voiceJoin(bob.client, f.memberId, channelId, XCHACHA);
    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({ channel_id: channelId, user_id: f.memberId });
    a.voice.speaking(1);
    a.voice.sendFrame(opus(1));
    expect((await b.voice.receive()).payload).toEqual(opus(1));
    expect(f.platform.voice.stats().calls[channelId]?.sort()).toEqual([f.ownerId, f.memberId].sort());

    // Alice leaves with op 4 (guild_id, channel_id null): the call goes on, so the start time stays.
    alice.client.send(4, { guild_id: f.guildId, channel_id: null, self_mute: false, self_deaf: false });
    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({
      guild_id: f.guildId,
      channel_id: null,
      user_id: f.ownerId,
    });
    await a.voice.socket.expectClose();
    // Bob disconnects (his last gateway session ends): the last one out clears the start time.
    await bob.client.close();
    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({ channel_id: null, user_id: f.memberId });
    expect(await s.next('VOICE_CHANNEL_START_TIME_UPDATE')).toEqual({ id: channelId, guild_id: f.guildId });
    expect(s.seen.filter((e) => e.t === 'VOICE_CHANNEL_START_TIME_UPDATE')).toEqual([]);
  });

  it('op 43 reads the start time the call set', async () => {
    const channelId = await voiceChannel();
    const s = await watcher();
    const alice = await userSession('alice');
    await voiceJoin(alice.client, f.ownerId, channelId);
    const started = await s.next('VOICE_CHANNEL_START_TIME_UPDATE');
    s.client.send(43, { guild_id: f.guildId, fields: ['voice_start_time'] });
    const info = await s.next('CHANNEL_INFO');
    expect(info.channels).toContainEqual({ id: channelId, voice_start_time: started.voice_start_time });
  });

  it('a bot joins with op 4 on its own session; a new session’s GUILD_CREATE lists it in voice_states', async () => {
    const channelId = await voiceChannel();
    const s = await watcher();
    s.client.send(4, { guild_id: f.guildId, channel_id: channelId, self_mute: false, self_deaf: true });
    const state = await s.next('VOICE_STATE_UPDATE');
    expect(state).toMatchObject({
      guild_id: f.guildId,
      channel_id: channelId,
      user_id: f.botUserId,
      self_deaf: true,
      session_id: s.ready.session_id,
    });
    const server = await s.next('VOICE_SERVER_UPDATE');
    const voice = await TestVoiceClient.join(
      {
        endpoint: server.endpoint,
        serverId: f.guildId,
        userId: f.botUserId,
        sessionId: state.session_id,
        token: server.token,
      },
      AES,
    );
    open.push(voice);

    const other = await botSession(f, INTENTS.GUILDS);
    open.push(other);
    const guild = await other.next('GUILD_CREATE');
    expect(guild.voice_states).toEqual([
      expect.objectContaining({ channel_id: channelId, user_id: f.botUserId, session_id: s.ready.session_id }),
    ]);
    expect(guild.voice_states[0]).not.toHaveProperty('guild_id');

    const read = await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/@me`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      guild_id: f.guildId,
      channel_id: channelId,
      user_id: f.botUserId,
      self_deaf: true,
    });
  });

  it('op 4 again for the same channel changes only the self flags; GUILD_CREATE lists the member in voice', async () => {
    const channelId = await voiceChannel();
    const s = await watcher();
    const alice = await userSession('alice');
    await voiceJoin(alice.client, f.ownerId, channelId);
    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({ user_id: f.ownerId, self_mute: false });
    alice.client.send(4, { guild_id: f.guildId, channel_id: channelId, self_mute: true, self_deaf: false });
    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({
      channel_id: channelId,
      user_id: f.ownerId,
      self_mute: true,
    });
    // Alice's own session is told the same; her voice connection stays in the call.
    let own: Frame;
    do own = (await alice.client.nextOf(0)) as Frame;
    while (own.t !== 'VOICE_STATE_UPDATE' || own.d.self_mute !== true);
    expect(f.platform.voice.stats().calls[channelId]).toEqual([f.ownerId]);
    const read = await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/${f.ownerId}`);
    expect(read.body).toMatchObject({ self_mute: true, session_id: alice.sessionId });

    // Without GUILD_PRESENCES, GUILD_CREATE's members are the bot and the members in voice (published).
    const other = await botSession(f, INTENTS.GUILDS);
    open.push(other);
    const guild = await other.next('GUILD_CREATE');
    expect(guild.members.map((m: { user: { id: string } }) => m.user.id).sort()).toEqual(
      [f.botUserId, f.ownerId].sort(),
    );
    expect(guild.voice_states).toEqual([
      expect.objectContaining({ channel_id: channelId, user_id: f.ownerId, self_mute: true }),
    ]);
  });

  it('op 4 leaving the guild from another application’s session ends the one voice state of the user there', async () => {
    const channelId = await voiceChannel();
    const alice = await userSession('alice');
    const a = await voiceJoin(alice.client, f.ownerId, channelId);
    const other = await createApp(f.platform, { name: `Second Game ${Date.now()}` });
    const elsewhere = await userSession('alice', other);
    elsewhere.client.send(4, { guild_id: f.guildId, channel_id: null, self_mute: false, self_deaf: false });
    expect((await a.voice.socket.expectClose()).code).toBe(4014);
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/${f.ownerId}`)).body.code).toBe(10065);
  });

  it('joining another channel of the guild moves the member: one voice state per guild', async () => {
    const first = await voiceChannel();
    const second = await voiceChannel();
    const s = await watcher();
    const alice = await userSession('alice');
    const a = await voiceJoin(alice.client, f.ownerId, first);
    await s.next('VOICE_CHANNEL_START_TIME_UPDATE');
    await voiceJoin(alice.client, f.ownerId, second);
    await a.voice.socket.expectClose();
    const read = await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/${f.ownerId}`);
    expect(read.body).toMatchObject({ channel_id: second });
    // The first channel's session ended, the second's started.
    const updates = [await s.next('VOICE_CHANNEL_START_TIME_UPDATE'), await s.next('VOICE_CHANNEL_START_TIME_UPDATE')];
    expect(updates).toEqual(
      expect.arrayContaining([
        { id: first, guild_id: f.guildId },
        { id: second, guild_id: f.guildId, voice_start_time: expect.any(Number) },
      ]),
    );
  });
});

describe('guild voice calls are DAVE calls', () => {
  it('with E2EE required (the default), two members form a DAVE group keyed by the channel and exchange media', async () => {
    // Its own platform: the shared one serves transport encryption only.
    const shared = f;
    f = await startBotPlatform();
    const peers: DavePeer[] = [];
    try {
      const channelId = await voiceChannel();
      const directory = new Map<number, string>();
      for (const [username, userId] of [
        ['alice', f.ownerId],
        ['bob', f.memberId],
      ] as const) {
        const session = await userSession(username);
        const { credentials } = await requestVoiceJoin(session.client, userId, channelId, {}, f.guildId);
        const client = await TestVoiceClient.join(credentials, 'aead_aes256_gcm_rtpsize', {
          maxDaveVersion: 1,
          ...(f.platform.caCertPem && { ca: f.platform.caCertPem }),
        });
        peers.push(new DavePeer(client, channelId, directory));
      }
      const [a, b] = peers as [DavePeer, DavePeer];
      expect(a.client.sessionDescription.d.dave_protocol_version).toBe(1);
      await eventually(() => a.session.ready && b.session.ready && a.session.epoch === b.session.epoch);
      expect(f.platform.voice.dave(channelId)?.leaves.sort()).toEqual([f.ownerId, f.memberId].sort());
      const plain = Buffer.concat([Buffer.from([0xfc, 1]), Buffer.from('guild-dave-frame'.padEnd(40, 'x'))]);
      expect(a.sendOpus(plain).subarray(-2)).toEqual(Buffer.from([0xfa, 0xfa]));
      expect(await eventually(() => b.decrypted.get(f.ownerId)?.[0])).toEqual(plain);
    } finally {
      await Promise.all(peers.map((p) => p.close().catch(() => undefined)));
      await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
      await f.platform.close();
      f = shared;
    }
  });
});

describe('the guild ends voice connections', () => {
  it('deleting a voice channel ends its call (4022) and clears the start time', async () => {
    const channelId = await voiceChannel();
    const s = await watcher();
    const alice = await userSession('alice');
    const a = await voiceJoin(alice.client, f.ownerId, channelId);
    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({ channel_id: channelId, user_id: f.ownerId });
    await s.next('VOICE_CHANNEL_START_TIME_UPDATE');
    expect((await botCall(f, 'DELETE', `/channels/${channelId}`)).status).toBe(200);
    expect((await a.voice.socket.expectClose()).code).toBe(4022);
    expect(await s.next('VOICE_STATE_UPDATE')).toMatchObject({ channel_id: null, user_id: f.ownerId });
    expect(await s.next('VOICE_CHANNEL_START_TIME_UPDATE')).toEqual({ id: channelId, guild_id: f.guildId });
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/${f.ownerId}`)).body.code).toBe(10065);
  });

  it('a kicked member is disconnected (4014)', async () => {
    // Its own platform: the kick removes bob from the guild, which the other tests rely on.
    const shared = f;
    f = await startBotPlatform({
      botPermissions: (BigInt(BOT_ROLE_PERMISSIONS) | KICK_MEMBERS).toString(),
      extra: { voice: { requireE2ee: false } },
    });
    try {
      const bob = await userSession('bob');
      const b = await voiceJoin(bob.client, f.memberId, f.voiceId);
      expect((await botCall(f, 'DELETE', `/guilds/${f.guildId}/members/${f.memberId}`)).status).toBe(204);
      expect((await b.voice.socket.expectClose()).code).toBe(4014);
      expect(f.platform.voice.stats().calls).toEqual({});
    } finally {
      await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
      await f.platform.close();
      f = shared;
    }
  });

  it('Set Voice Channel Status needs MANAGE_CHANNELS only while the caller is not connected to the channel', async () => {
    const channelId = await voiceChannel({
      permission_overwrites: [{ id: f.botUserId, type: 1, deny: MANAGE_CHANNELS.toString() }],
    });
    expect((await botCall(f, 'PUT', `/channels/${channelId}/voice-status`, { status: 'raid' })).body.code).toBe(50013);
    const s = await watcher();
    s.client.send(4, { guild_id: f.guildId, channel_id: channelId, self_mute: false, self_deaf: false });
    await s.next('VOICE_SERVER_UPDATE');
    expect((await botCall(f, 'PUT', `/channels/${channelId}/voice-status`, { status: 'raid' })).status).toBe(204);
  });
});

describe('guild voice refusals', () => {
  it('a text channel is refused with 50024, an unknown channel with 10003, an unknown guild with 10004', async () => {
    const alice = await userSession('alice');
    alice.client.send(4, { guild_id: f.guildId, channel_id: f.generalId, self_mute: false, self_deaf: false });
    expect(await refusal(alice.client)).toEqual({
      guild_id: f.guildId,
      channel_id: f.generalId,
      code: 50024,
      message: 'Cannot execute action on this channel type',
    });
    alice.client.send(4, { guild_id: f.guildId, channel_id: '123456789', self_mute: false, self_deaf: false });
    expect((await refusal(alice.client)).code).toBe(10003);
    alice.client.send(4, { guild_id: '123456789', channel_id: f.voiceId, self_mute: false, self_deaf: false });
    expect((await refusal(alice.client)).code).toBe(10004);
    expect(f.platform.voice.stats().calls).toEqual({});
  });

  it('a member without CONNECT on the channel is refused with 50013; a user outside the guild with 50001', async () => {
    const channelId = await voiceChannel({
      permission_overwrites: [{ id: f.guildId, type: 0, deny: CONNECT.toString() }],
    });
    const bob = await userSession('bob');
    bob.client.send(4, { guild_id: f.guildId, channel_id: channelId, self_mute: false, self_deaf: false });
    expect(await refusal(bob.client)).toMatchObject({ code: 50013 });
    const outsider = await createUser(f.platform, { username: `outsider_${Date.now()}` });
    const out = await userSession(outsider.username);
    out.client.send(4, { guild_id: f.guildId, channel_id: f.voiceId, self_mute: false, self_deaf: false });
    expect(await refusal(out.client)).toMatchObject({ code: 50001 });
    const read = await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/${f.memberId}`);
    expect(read.body.code).toBe(10065);
  });

  it('user_limit refuses one more member with 30050; MOVE_MEMBERS (the owner) bypasses it', async () => {
    const channelId = await voiceChannel({ user_limit: 1 });
    const s = await watcher();
    const bob = await userSession('bob');
    await voiceJoin(bob.client, f.memberId, channelId);
    // The bot holds no MOVE_MEMBERS.
    s.client.send(4, { guild_id: f.guildId, channel_id: channelId, self_mute: false, self_deaf: false });
    expect(await s.next('VOICE_JOIN_REFUSED')).toEqual({
      guild_id: f.guildId,
      channel_id: channelId,
      code: 30050,
      message: 'Maximum number of call participants reached',
    });
    const alice = await userSession('alice');
    await voiceJoin(alice.client, f.ownerId, channelId);
    expect(f.platform.voice.stats().calls[channelId]).toHaveLength(2);
  });

  it('a bot op 4 without guild_id is an invalid payload (4001)', async () => {
    const s = await watcher();
    const closed = new Promise<number>((resolve) => s.client.on('socketClose', (code: number) => resolve(code)));
    s.client.send(4, { guild_id: null, channel_id: f.voiceId, self_mute: false, self_deaf: false });
    expect(await closed).toBe(4001);
  });
});

describe('voice state reads', () => {
  it('Get Current User Voice State and Get User Voice State answer with the published shape', async () => {
    const channelId = await voiceChannel();
    const alice = await userSession('alice');
    await voiceJoin(alice.client, f.ownerId, channelId);
    const byBot = await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/${f.ownerId}`);
    expect(byBot.status).toBe(200);
    expect(voiceStateSchema.safeParse(byBot.body).success).toBe(true);
    expect(byBot.body).toMatchObject({
      guild_id: f.guildId,
      channel_id: channelId,
      user_id: f.ownerId,
      session_id: alice.sessionId,
      member: { user: { id: f.ownerId } },
    });
    const own = await request(`${f.platform.apiBase}/guilds/${f.guildId}/voice-states/@me`, {
      headers: bearer(alice.token),
    });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(byBot.body);
  });

  it('not in voice is 404 10065; outside the guild 403 50001; another application’s bot 403 50001', async () => {
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/@me`)).body).toMatchObject({
      code: 10065,
      message: 'Unknown Voice State',
    });
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/${f.memberId}`)).status).toBe(404);
    expect((await botCall(f, 'GET', `/guilds/${f.guildId}/voice-states/abc`)).body.code).toBe(10065);
    expect((await botCall(f, 'GET', `/guilds/123456789/voice-states/@me`)).body.code).toBe(10004);
    const outsider = await createUser(f.platform, { username: `reader_${Date.now()}` });
    const token = (
      await accessTokenFor(f.platform, {
        clientId: f.platform.devApp.id,
        scope: 'guilds.members.read',
        user: outsider.username,
      })
    ).access_token;
    const notMember = await request(`${f.platform.apiBase}/guilds/${f.guildId}/voice-states/@me`, {
      headers: bearer(token),
    });
    expect([notMember.status, notMember.body.code]).toEqual([403, 50001]);
    const other = await createApp(f.platform, { name: `Other Bot ${Date.now()}` });
    const foreign = await request(`${f.platform.apiBase}/guilds/${f.guildId}/voice-states/${f.ownerId}`, {
      headers: bot(other.bot_token),
    });
    expect([foreign.status, foreign.body.code]).toEqual([403, 50001]);
  });

  it('a user token cannot read another user’s voice state, nor its own without guilds.members.read', async () => {
    const alice = await userSession('alice');
    const byUser = await request(`${f.platform.apiBase}/guilds/${f.guildId}/voice-states/${f.memberId}`, {
      headers: bearer(alice.token),
    });
    expect(byUser.status).toBe(403);
    const narrow = (
      await accessTokenFor(f.platform, { clientId: f.platform.devApp.id, scope: 'identify', user: 'alice' })
    ).access_token;
    const noScope = await request(`${f.platform.apiBase}/guilds/${f.guildId}/voice-states/@me`, {
      headers: bearer(narrow),
    });
    expect(noScope.status).toBe(403);
  });
});
