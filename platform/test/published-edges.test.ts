/**
 * The edges published clients touch (platform/PROTOCOL.md §2 "As published, at the edges"): what the published service
 * sends exactly and the inputs it tolerates, each checked at the wire as a library sends it (raw HTTP, WebSocket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../src/index.js';
import { RawClient } from './gateway/client.js';
import { bot, request } from './helpers/http.js';
import { startTestPlatform } from './helpers/platform.js';

const PROPERTIES = { os: 'linux', browser: 'test', device: 'test' };

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
        request(`${platform.apiBase}/applications/@me`, { method: 'PATCH', headers: { ...bot(platform.devApp.botToken), 'content-type': 'application/json' }, raw: '{' }),
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
      client.send(2, { token: platform.devApp.botToken, intents: 0, properties: PROPERTIES, presence: { activities: 'none' } });
      expect((await client.expectClose()).code).toBe(4001);
    });
  });

  describe('READY of a bot', () => {
    it('carries the lists the published READY has: private_channels, relationships, presences (empty), user_settings, session_type', async () => {
      const client = await RawClient.open(platform.gatewayUrl);
      const ready = (await client.identify(platform.devApp.botToken)).d as Record<string, unknown>;
      expect(ready).toMatchObject({ private_channels: [], relationships: [], presences: [], guild_join_requests: [], user_settings: {}, session_type: 'normal', guilds: [] });
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
        const response = await request(`${platform.httpUrl}/api/${version}/users/@me`, { headers: bot(platform.devApp.botToken) });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 50041, message: 'Invalid API version' });
      }
    });
  });
});
