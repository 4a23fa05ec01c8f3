/** The gateway inside the real platform: startPlatform's wiring, its dev application's bot token, and WSS. */
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { startPlatform } from '../../src/index.js';
import { Close } from '../../src/gateway/index.js';
import { testDatabase } from '../support/database.js';
import { GatewayClient } from '../support/gateway-client.js';
import { once } from './client.js';

function getJson(url: string, ca: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      })
      .on('error', reject);
  });
}

describe('gateway through startPlatform', () => {
  it('the dev bot: /gateway/bot, Identify, READY, a bus dispatch, and 1001 on platform close', async () => {
    const platform = await startPlatform({ database: testDatabase(), logger: false });
    try {
      const res = await fetch(`${platform.apiBase}/gateway/bot`, {
        headers: { authorization: `Bot ${platform.devApp.botToken}` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { url: string; shards: number };
      expect(body).toMatchObject({ url: platform.gatewayUrl, shards: 1 });

      const client = new GatewayClient({
        url: body.url,
        token: platform.devApp.botToken,
        intents: 0,
        autoReconnect: false,
      });
      const ready = await client.connect();
      expect(ready).toMatchObject({
        v: 10,
        application: { id: platform.devApp.id },
        user: { bot: true },
        resume_gateway_url: platform.gatewayUrl,
      });
      const dispatch = once<[string, unknown, number]>(client, 'dispatch');
      platform.bus.publish({ t: 'TEST_EVENT', d: { hello: 'world' }, to: { applicationId: platform.devApp.id } });
      expect(await dispatch).toEqual(['TEST_EVENT', { hello: 'world' }, 2]);

      const closed = once<[number]>(client, 'socketClose');
      await platform.close();
      expect((await closed)[0]).toBe(Close.GoingAway);
    } finally {
      await platform.close();
    }
  });

  it('a bad bot token is refused with 4004 and 401', async () => {
    const platform = await startPlatform({ database: testDatabase(), logger: false });
    try {
      const res = await fetch(`${platform.apiBase}/gateway/bot`, { headers: { authorization: 'Bot not-a-token' } });
      expect(res.status).toBe(401);
      const client = new GatewayClient({ url: platform.gatewayUrl, token: 'not-a-token', intents: 0 });
      const fatal = once<[number]>(client, 'fatal');
      await expect(client.connect()).rejects.toThrow(/4004/);
      expect((await fatal)[0]).toBe(Close.AuthenticationFailed);
    } finally {
      await platform.close();
    }
  });

  it('with TLS the gateway is wss:// everywhere and works with the self-signed certificate', async () => {
    const platform = await startPlatform({ database: testDatabase(), logger: false, tls: true });
    try {
      expect(platform.gatewayUrl).toMatch(/^wss:\/\//);
      const ca = platform.caCertPem!;
      expect(await getJson(`${platform.apiBase}/gateway`, ca)).toEqual({ url: platform.gatewayUrl });
      const client = new GatewayClient({
        url: platform.gatewayUrl,
        token: platform.devApp.botToken,
        intents: 0,
        compress: true,
        wsOptions: { ca },
      });
      const ready = await client.connect();
      expect(ready.resume_gateway_url).toBe(platform.gatewayUrl);
      await client.close();
    } finally {
      await platform.close();
    }
  });
});
