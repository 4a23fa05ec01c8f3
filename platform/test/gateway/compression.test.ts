import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Op } from '../../src/gateway/index.js';
import { GatewayClient } from '../support/gateway-client.js';
import { RawClient } from './client.js';
import { startGateway, USER_A, type Harness } from './harness.js';

let h: Harness;
const raws: RawClient[] = [];

beforeEach(async () => {
  h = await startGateway();
});
afterEach(async () => {
  await Promise.all(raws.splice(0).map((c) => c.close()));
  await h.close();
});

describe('compress=zlib-stream', () => {
  it('sends every message as one binary frame ending in 00 00 FF FF, all from one zlib context', async () => {
    const c = await RawClient.open(h.url, 'v=10&encoding=json&compress=zlib-stream');
    raws.push(c);
    await c.identify('Bearer user-a');
    const big = { text: 'repeat '.repeat(2000) };
    for (let n = 0; n < 20; n++) h.bus.publish({ t: 'TEST_EVENT', d: n % 2 ? big : { n }, to: { userIds: [USER_A] } });
    for (let n = 0; n < 20; n++)
      expect(await c.next()).toMatchObject({ op: 0, t: 'TEST_EVENT', s: n + 2, d: n % 2 ? big : { n } });
    // Hello, READY and 20 dispatches, each its own WebSocket message, each flushed.
    expect(c.binaryFrames).toHaveLength(22);
    for (const frame of c.binaryFrames) expect([...frame.subarray(-4)]).toEqual([0x00, 0x00, 0xff, 0xff]);
    // Only the first frame carries the zlib header: later frames are not standalone streams.
    expect(c.binaryFrames[0]![0]).toBe(0x78);
    expect(() => zlib.inflateSync(c.binaryFrames[5]!, { finishFlush: zlib.constants.Z_SYNC_FLUSH })).toThrow();
    // A repeated payload compresses against the shared window.
    expect(c.binaryFrames[5]!.length).toBeLessThan(200);
  });

  it('accepts uncompressed client payloads on a compressed connection (client frames are never compressed)', async () => {
    const c = await RawClient.open(h.url, 'v=10&encoding=json&compress=zlib-stream');
    raws.push(c);
    await c.nextOf(Op.Hello);
    c.send(Op.Heartbeat, null);
    expect((await c.next()).op).toBe(Op.HeartbeatAck);
  });

  it('the reference client inflates with its own context and sees the same events', async () => {
    const client = new GatewayClient({ url: h.url, token: 'Bearer user-a', compress: true });
    const got: unknown[] = [];
    client.on('dispatch', (t: string, d: unknown) => t === 'TEST_EVENT' && got.push(d));
    await client.connect();
    for (let n = 0; n < 50; n++)
      h.bus.publish({ t: 'TEST_EVENT', d: { n, pad: 'x'.repeat(n * 10) }, to: { userIds: [USER_A] } });
    await expect.poll(() => got.length).toBe(50);
    expect(got).toEqual(Array.from({ length: 50 }, (_, n) => ({ n, pad: 'x'.repeat(n * 10) })));
    await client.close();
  });
});

describe('Identify compress: true (per-payload zlib)', () => {
  it('sends READY and later frames as standalone zlib streams', async () => {
    const c = await RawClient.open(h.url);
    raws.push(c);
    const ready = await c.identify('Bearer user-a', { compress: true });
    expect(ready.s).toBe(1);
    h.bus.publish({ t: 'TEST_EVENT', d: { n: 1 }, to: { userIds: [USER_A] } });
    expect(await c.next()).toMatchObject({ t: 'TEST_EVENT', d: { n: 1 } });
    expect(c.binaryFrames).toHaveLength(2);
    for (const frame of c.binaryFrames) expect(JSON.parse(zlib.inflateSync(frame).toString()).op).toBe(0);
  });

  it('is ignored when the connection already uses zlib-stream', async () => {
    const c = await RawClient.open(h.url, 'v=10&encoding=json&compress=zlib-stream');
    raws.push(c);
    await c.identify('Bearer user-a', { compress: true });
    h.bus.publish({ t: 'TEST_EVENT', d: { n: 1 }, to: { userIds: [USER_A] } });
    expect(await c.next()).toMatchObject({ t: 'TEST_EVENT', s: 2 });
    for (const frame of c.binaryFrames) expect([...frame.subarray(-4)]).toEqual([0x00, 0x00, 0xff, 0xff]);
  });
});
