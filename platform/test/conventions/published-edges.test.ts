/**
 * The edges published clients touch (platform/PROTOCOL.md §2 "As published, at the edges"): what the published service
 * sends exactly and the inputs it tolerates, each checked at the wire as a library sends it (raw HTTP, WebSocket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { RawClient } from '../gateway/client.js';
import { startBotPlatform, type BotFixture } from '../bot/fixture.js';
import { botCall, botSession, INTENTS } from '../bot/helpers.js';
import { bot, request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';

const PROPERTIES = { os: 'linux', browser: 'test', device: 'test' };
const GUILD_MESSAGE_TYPING = 1 << 11;

describe('as published, at the edges', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  describe('Content-Type of JSON answers', () => {
    it('is exactly application/json on answers, errors and 404s', async () => {
      const answers = await Promise.all([
        request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) }),
        request(`${platform.apiBase}/gateway/bot`, { headers: bot(platform.devApp.botToken) }),
        request(`${platform.apiBase}/users/@me`),
        request(`${platform.apiBase}/no/such/route`),
        request(`${platform.apiBase}/applications/@me`, {
          method: 'PATCH',
          headers: { ...bot(platform.devApp.botToken), 'content-type': 'application/json' },
          raw: '{',
        }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 400]);
      for (const answer of answers) expect(answer.headers['content-type']).toBe('application/json');
    });
  });

  describe('gateway connection URL', () => {
    for (const [path, query] of [
      ['/gateway/', 'v=10&encoding=json'],
      ['/gateway/', 'v=10&encoding=json&compress=zlib-stream'],
      ['/gateway', 'encoding=json'],
      ['/gateway', 'v=10&encoding=json&compress='],
      ['/gateway', 'v=9&encoding=json'],
    ] as const) {
      it(`answers Hello at ${path}?${query}`, async () => {
        const client = await RawClient.open(`${platform.httpUrl.replace(/^http/, 'ws')}${path}`, query);
        expect((await client.nextOf(10)).d).toMatchObject({ heartbeat_interval: expect.any(Number) });
        await client.close();
      });
    }

    it('closes 4012 for encodings and compressions it does not speak', async () => {
      for (const query of ['v=10&encoding=etf', 'v=10&encoding=json&compress=zstd-stream', 'v=8&encoding=json']) {
        const client = await RawClient.open(platform.gatewayUrl, query);
        expect((await client.expectClose()).code, query).toBe(4012);
      }
    });
  });

  describe('Identify', () => {
    it('takes the bot token with the "Bot " prefix', async () => {
      const client = await RawClient.open(platform.gatewayUrl);
      const ready = await client.identify(`Bot ${platform.devApp.botToken}`);
      expect((ready.d as { user: { id: string } }).user.id).toBeDefined();
      await client.close();
    });

    it('takes a presence with activities null and without since and afk', async () => {
      for (const presence of [
        { since: null, activities: null, status: 'online', afk: false },
        { activities: [{ name: 'a game', type: 0 }], status: 'idle' },
        { status: 'dnd' },
        { activities: [{ name: 'no type' }] },
      ]) {
        const client = await RawClient.open(platform.gatewayUrl);
        await client.nextOf(10);
        client.send(2, { token: platform.devApp.botToken, intents: 0, properties: PROPERTIES, presence });
        expect((await client.nextOf(0, 'READY')).t, JSON.stringify(presence)).toBe('READY');
        await client.close();
      }
    });

    it('still closes 4001 for a presence of the wrong shape', async () => {
      const client = await RawClient.open(platform.gatewayUrl);
      await client.nextOf(10);
      client.send(2, {
        token: platform.devApp.botToken,
        intents: 0,
        properties: PROPERTIES,
        presence: { activities: 'none' },
      });
      expect((await client.expectClose()).code).toBe(4001);
    });
  });

  describe('READY of a bot', () => {
    it('carries the lists the published READY has: private_channels, relationships, presences (empty), user_settings, session_type', async () => {
      const client = await RawClient.open(platform.gatewayUrl);
      const ready = (await client.identify(platform.devApp.botToken)).d as Record<string, unknown>;
      expect(ready).toMatchObject({
        private_channels: [],
        relationships: [],
        presences: [],
        guild_join_requests: [],
        user_settings: {},
        session_type: 'normal',
        guilds: [],
      });
      await client.close();
    });
  });

  describe('REST API versions', () => {
    it('serves /api/v9 as v10', async () => {
      const v9 = await request(`${platform.httpUrl}/api/v9/users/@me`, { headers: bot(platform.devApp.botToken) });
      const v10 = await request(`${platform.apiBase}/users/@me`, { headers: bot(platform.devApp.botToken) });
      expect(v9.status).toBe(200);
      expect(v9.body).toEqual(v10.body);
      const gateway = await request(`${platform.httpUrl}/api/v9/gateway`);
      expect(gateway.body).toEqual({ url: platform.gatewayUrl });
    });

    it('still refuses versions it does not serve with 50041', async () => {
      for (const version of ['v8', 'v11']) {
        const response = await request(`${platform.httpUrl}/api/${version}/users/@me`, {
          headers: bot(platform.devApp.botToken),
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 50041, message: 'Invalid API version' });
      }
    });
  });

  describe('HTTP requests as libraries send them', () => {
    it('answers a path served under other methods with 405, as published, and an unknown path with 404', async () => {
      const wrongMethod = await request(`${platform.apiBase}/users/@me`, {
        method: 'DELETE',
        headers: bot(platform.devApp.botToken),
      });
      expect([wrongMethod.status, wrongMethod.body]).toEqual([405, { code: 0, message: '405: Method Not Allowed' }]);
      const withParams = await request(`${platform.apiBase}/guilds/123/roles`, {
        method: 'PUT',
        headers: bot(platform.devApp.botToken),
      });
      expect(withParams.status).toBe(405);
      const unknown = await request(`${platform.apiBase}/users/@me/nothing-here`, {
        method: 'DELETE',
        headers: bot(platform.devApp.botToken),
      });
      expect([unknown.status, unknown.body]).toEqual([404, { code: 0, message: '404: Not Found' }]);
    });

    it('takes the authorization scheme in any case', async () => {
      for (const scheme of ['bot', 'BOT']) {
        const response = await request(`${platform.apiBase}/users/@me`, {
          headers: { authorization: `${scheme} ${platform.devApp.botToken}` },
        });
        expect(response.status, scheme).toBe(200);
      }
    });

    it('serves a route with a trailing slash as without', async () => {
      const slash = await request(`${platform.apiBase}/users/@me/`, { headers: bot(platform.devApp.botToken) });
      expect(slash.status).toBe(200);
      expect(slash.body.id).toBeDefined();
    });
  });

  describe('Identify properties', () => {
    it('takes the older $os/$browser/$device keys and left-out ones', async () => {
      for (const properties of [{ $os: 'linux', $browser: 'lib', $device: 'lib' }, {}]) {
        const client = await RawClient.open(platform.gatewayUrl);
        await client.nextOf(10);
        client.send(2, { token: platform.devApp.botToken, intents: 0, properties });
        expect((await client.nextOf(0, 'READY')).t).toBe('READY');
        await client.close();
      }
    });
  });
});

describe('gateway v9: MESSAGE_CONTENT as published v9 serves it', () => {
  let f: BotFixture;
  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  /**
   * A session of the fixture's bot on `v`, identified with GUILDS and GUILD_MESSAGES only; a member's message to it.
   */
  async function contentSeenOn(v: number): Promise<string> {
    const client = await RawClient.open(f.platform.gatewayUrl, `v=${v}&encoding=json`);
    await client.identify(f.botToken, { intents: 1 | (1 << 9) });
    const sent = await request(`${f.platform.apiBase}/dev/channels/${f.generalId}/messages`, {
      json: { author_id: f.memberId, content: `from bob on v${v}` },
    });
    expect(sent.status, sent.text).toBe(200);
    const message = await client.nextOf(0, 'MESSAGE_CREATE');
    await client.close();
    return (message.d as { content: string }).content;
  }

  it('a bot with the grant gets content on v9 without the intent bit; on v10 it needs the bit', async () => {
    expect(await contentSeenOn(9)).toBe('from bob on v9');
    expect(await contentSeenOn(10)).toBe('');
  });
});

describe('null and empty for what may be left out', () => {
  let f: BotFixture;
  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('takes null for an optional field that is not nullable as left out (a message with every unset field null)', async () => {
    const body = {
      content: 'nulls',
      embeds: null,
      allowed_mentions: null,
      tts: null,
      components: null,
      sticker_ids: null,
      message_reference: null,
      nonce: null,
      flags: null,
      attachments: null,
      poll: null,
      enforce_nonce: null,
    };
    const sent = await botCall(f, 'POST', `/channels/${f.generalId}/messages`, body);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ content: 'nulls', embeds: [], components: [], flags: 0 });
    const role = await botCall(f, 'POST', `/guilds/${f.guildId}/roles`, {
      name: 'nulls',
      permissions: null,
      color: null,
      hoist: null,
      mentionable: null,
    });
    expect(role.status, role.text).toBe(200);
    const command = await botCall(f, 'POST', `/applications/${f.appId}/commands`, {
      name: 'nulls',
      description: 'd',
      options: null,
      nsfw: null,
      type: 1,
    });
    expect(command.status, command.text).toBe(201);
  });

  it('still refuses null for a required field, and a nullable field keeps null (a PATCH clears)', async () => {
    const required = await botCall(f, 'POST', `/guilds/${f.guildId}/channels`, { name: null });
    expect([required.status, required.body.code]).toEqual([400, 50035]);
    expect((await botCall(f, 'PATCH', `/channels/${f.generalId}`, { topic: 'a topic' })).body.topic).toBe('a topic');
    const cleared = await botCall(f, 'PATCH', `/channels/${f.generalId}`, { topic: null });
    expect([cleared.status, cleared.body.topic]).toEqual([200, null]);
  });

  it('takes an empty query parameter as left out', async () => {
    await botCall(f, 'POST', `/channels/${f.generalId}/messages`, { content: 'listed' });
    const listed = await botCall(f, 'GET', `/channels/${f.generalId}/messages?before=&after=&limit=1`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toHaveLength(1);
  });
});

describe('routes libraries call that the published service serves', () => {
  let f: BotFixture;
  beforeAll(async () => {
    f = await startBotPlatform();
  });
  afterAll(() => f.platform.close());

  it('Trigger Typing Indicator: 204, and TYPING_START to sessions with GUILD_MESSAGE_TYPING', async () => {
    const typing = await botSession(f, INTENTS.GUILDS | GUILD_MESSAGE_TYPING);
    try {
      const response = await botCall(f, 'POST', `/channels/${f.generalId}/typing`);
      expect([response.status, response.text]).toEqual([204, '']);
      expect(await typing.next('TYPING_START')).toMatchObject({
        channel_id: f.generalId,
        guild_id: f.guildId,
        user_id: f.botUserId,
        timestamp: expect.any(Number),
        member: { user: { id: f.botUserId } },
      });
      const unknown = await botCall(f, 'POST', '/channels/123/typing');
      expect([unknown.status, unknown.body.code]).toEqual([404, 10003]);
    } finally {
      await typing.close();
    }
  });
});
