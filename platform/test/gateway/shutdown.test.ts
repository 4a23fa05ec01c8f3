import { describe, expect, it } from 'vitest';
import { Close } from '../../src/gateway/index.js';
import { GatewayClient } from '../support/gateway-client.js';
import { RawClient } from './client.js';
import { startGateway } from './harness.js';

describe('shutdown', () => {
  it('close() closes every socket with 1001, forgets every session and is idempotent', async () => {
    const h = await startGateway();
    const a = await RawClient.open(h.url);
    await a.identify('Bearer user-a');
    const b = await RawClient.open(h.url, 'v=10&encoding=json&compress=zlib-stream');
    await b.identify('Bearer user-b');
    const idle = await RawClient.open(h.url);
    await Promise.all([h.gateway.close(), h.gateway.close()]);
    for (const c of [a, b, idle]) expect((await c.expectClose()).code).toBe(Close.GoingAway);
    expect(h.gateway.stats()).toEqual({ connections: 0, attached: 0, detached: 0 });
    await h.close();
  });

  it('app.close() shuts the gateway down the same way', async () => {
    const h = await startGateway();
    const client = new GatewayClient({ url: h.url, token: 'Bearer user-a', autoReconnect: false });
    await client.connect();
    const closed = new Promise<number>((resolve) => client.once('socketClose', resolve));
    await h.close();
    expect(await closed).toBe(Close.GoingAway);
    expect(h.gateway.sessionCount()).toBe(0);
  });
});
