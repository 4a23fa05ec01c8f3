import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../support/gateway-client.js';
import { startGateway, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('GET /api/v10/gateway', () => {
  it('returns the ws:// URL of this server without authentication, and it works', async () => {
    h = await startGateway();
    const res = await fetch(`${h.httpUrl}/api/v10/gateway`);
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toBe(h.url);
    const client = new GatewayClient({ url, token: 'Bearer user-a' });
    await client.connect();
    await client.close();
  });

  it('derives ws:// or wss:// (and a path prefix) from publicUrl', async () => {
    let publicUrl = 'https://platform.example:8443';
    h = await startGateway({}, { publicUrl: () => publicUrl });
    const get = async () => ((await (await fetch(`${h!.httpUrl}/api/v10/gateway`)).json()) as { url: string }).url;
    expect(await get()).toBe('wss://platform.example:8443/gateway');
    publicUrl = 'http://127.0.0.1:9/prefix/';
    expect(await get()).toBe('ws://127.0.0.1:9/prefix/gateway');
    publicUrl = 'wss://gw.example/gateway';
    expect(await get()).toBe('wss://gw.example/gateway');
  });

  it('READY resume_gateway_url follows publicUrl too', async () => {
    h = await startGateway({}, { publicUrl: () => 'https://platform.example' });
    const client = new GatewayClient({ url: h.url, token: 'Bearer user-a', autoReconnect: false });
    const ready = await client.connect();
    expect(ready.resume_gateway_url).toBe('wss://platform.example/gateway');
    await client.close();
  });
});

describe('GET /api/v10/gateway/bot', () => {
  it('returns url, shards and session_start_limit for a bot token, counting identifies', async () => {
    h = await startGateway({ sessionStartLimit: 1000 });
    const get = async () =>
      (await fetch(`${h!.httpUrl}/api/v10/gateway/bot`, { headers: { authorization: 'Bot bot-token-1' } })).json();
    expect(await get()).toEqual({
      url: h.url,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
    });
    const client = new GatewayClient({ url: h.url, token: 'bot-token-1', intents: 0 });
    await client.connect();
    await client.close();
    const after = (await get()) as { session_start_limit: { remaining: number; reset_after: number } };
    expect(after.session_start_limit.remaining).toBe(999);
    expect(after.session_start_limit.reset_after).toBeGreaterThan(0);
  });

  it.each([
    ['no Authorization header', undefined],
    ['an unknown bot token', 'Bot nope'],
    ['a bot token without the Bot prefix', 'bot-token-1 '],
    ['an unknown bearer token', 'Bearer nope'],
  ])('answers 401 {code: 0} for %s', async (_what, authorization) => {
    h = await startGateway();
    const res = await fetch(`${h.httpUrl}/api/v10/gateway/bot`, { headers: authorization ? { authorization } : {} });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });

  it('answers 403 {code: 20002} for a user token', async () => {
    h = await startGateway();
    const res = await fetch(`${h.httpUrl}/api/v10/gateway/bot`, { headers: { authorization: 'Bearer user-a' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Only bots can use this endpoint', code: 20002 });
  });
});
