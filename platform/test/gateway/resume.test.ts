import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Close, Op } from '../../src/gateway/index.js';
import { GatewayClient } from '../support/gateway-client.js';
import { once, RawClient } from './client.js';
import { startGateway, USER_A, USER_B, type Harness } from './harness.js';

let h: Harness;
const raws: RawClient[] = [];
const clients: GatewayClient[] = [];

async function open(): Promise<RawClient> {
  const c = await RawClient.open(h.url);
  raws.push(c);
  return c;
}
function client(token: string, compress = false): GatewayClient {
  const c = new GatewayClient({ url: h.url, token, compress, intents: 0 });
  clients.push(c);
  return c;
}
function publishTo(userId: string, n: number): void {
  h.bus.publish({ t: 'TEST_EVENT', d: { n }, to: { userIds: [userId] } });
}
/** Identifies and returns [client, session_id]. */
async function identified(token = 'Bearer user-a'): Promise<[RawClient, string]> {
  const c = await open();
  const ready = await c.identify(token);
  return [c, (ready.d as { session_id: string }).session_id];
}
async function resumeOn(sessionId: string, seq: number, token = 'Bearer user-a'): Promise<RawClient> {
  const c = await open();
  await c.nextOf(Op.Hello);
  c.send(Op.Resume, { token, session_id: sessionId, seq });
  return c;
}

beforeEach(async () => {
  h = await startGateway();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(raws.splice(0).map((c) => c.close()));
  await h.close();
});

describe.each([false, true])('resume in the middle of a stream (zlib-stream: %s)', (compress) => {
  it('a client dropped mid-stream resumes and receives every missed event exactly once, in order', async () => {
    const c = client('Bearer user-a', compress);
    const events: number[] = [];
    const seqs: number[] = [];
    c.on('dispatch', (t: string, d: { n: number }, s: number) => {
      seqs.push(s);
      if (t === 'TEST_EVENT') events.push(d.n);
    });
    const ready = await c.connect();
    // Events that reach the client between losing the socket and RESUMED are the replay.
    let replaying = false;
    let replayed = 0;
    c.on('socketClose', () => (replaying = true));
    c.on('dispatch', (t: string) => replaying && t === 'TEST_EVENT' && replayed++);
    const resumed = once(c, 'resumed').then(() => (replaying = false));
    const TOTAL = 600;
    for (let n = 0; n < TOTAL; n++) {
      publishTo(USER_A, n);
      if (n === 200) {
        // The drop cuts frames in flight. The session is detached at once, so the next 50 events, published before
        // the client can possibly be back, are certainly missed; later ones race with the reconnect and the replay.
        h.gateway.dropConnections({ userId: USER_A });
        for (n++; n <= 250; n++) publishTo(USER_A, n);
        n--;
      }
      await tick();
    }
    await resumed;
    expect(replayed).toBeGreaterThanOrEqual(50);
    await expect.poll(() => events.length).toBe(TOTAL);
    expect(events).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
    // One session throughout: READY, the events and RESUMED form one gapless sequence.
    expect(c.sessionId).toBe(ready.session_id);
    expect(seqs).toEqual(Array.from({ length: TOTAL + 2 }, (_, i) => i + 1));
  });
});

describe('resume', () => {
  it('replays exactly the dispatches after seq, then RESUMED with the next sequence', async () => {
    const [c, sessionId] = await identified();
    for (let n = 0; n < 5; n++) publishTo(USER_A, n);
    for (let s = 2; s <= 6; s++) expect((await c.next()).s).toBe(s);
    h.gateway.dropConnections();
    await c.expectClose();
    for (let n = 5; n < 8; n++) publishTo(USER_A, n);
    const r = await resumeOn(sessionId, 4);
    const got = [await r.next(), await r.next(), await r.next(), await r.next(), await r.next(), await r.next()];
    expect(got.map((p) => [p.t, p.s, (p.d as { n?: number } | null)?.n])).toEqual([
      ['TEST_EVENT', 5, 3],
      ['TEST_EVENT', 6, 4],
      ['TEST_EVENT', 7, 5],
      ['TEST_EVENT', 8, 6],
      ['TEST_EVENT', 9, 7],
      ['RESUMED', 10, undefined],
    ]);
    publishTo(USER_A, 8);
    expect(await r.next()).toMatchObject({ op: 0, t: 'TEST_EVENT', s: 11, d: { n: 8 } });
    expect(h.gateway.stats()).toMatchObject({ attached: 1, detached: 0 });
  });

  it('a resume with the latest seq replays nothing', async () => {
    const [c, sessionId] = await identified();
    publishTo(USER_A, 0);
    await c.nextOf(0, 'TEST_EVENT');
    await c.close(4900);
    const r = await resumeOn(sessionId, 2);
    expect(await r.next()).toMatchObject({ t: 'RESUMED', s: 3 });
  });

  it('takes a session over from a connection that is still open (a zombie)', async () => {
    const [old, sessionId] = await identified();
    const r = await resumeOn(sessionId, 1);
    expect(await r.next()).toMatchObject({ t: 'RESUMED', s: 2 });
    expect((await old.expectClose()).code).toBe(1006);
    publishTo(USER_A, 1);
    expect(await r.next()).toMatchObject({ t: 'TEST_EVENT', s: 3 });
  });

  it('answers op 9 false for an unknown session, and the socket may Identify right after', async () => {
    const r = await resumeOn('0'.repeat(32), 1);
    expect(await r.next()).toEqual({ op: Op.InvalidSession, d: false, s: null, t: null });
    r.send(Op.Identify, { token: 'Bearer user-a', properties: { os: 'l', browser: 'b', device: 'd' } });
    expect(await r.nextOf(0, 'READY')).toMatchObject({ s: 1 });
  });

  it("answers op 9 false for another user's session, which stays resumable by its owner", async () => {
    const [c, sessionId] = await identified();
    await c.close(4900);
    const intruder = await resumeOn(sessionId, 1, 'Bearer user-b');
    expect((await intruder.next()).op).toBe(Op.InvalidSession);
    const owner = await resumeOn(sessionId, 1);
    expect(await owner.next()).toMatchObject({ t: 'RESUMED' });
  });

  it('closes 4004 when the resume token is no longer valid', async () => {
    const [c, sessionId] = await identified();
    await c.close(4900);
    h.tokens.delete('Bearer user-a');
    const r = await resumeOn(sessionId, 1);
    expect((await r.expectClose()).code).toBe(Close.AuthenticationFailed);
  });

  it('closes 4007 for a seq the session never sent, and the session is gone', async () => {
    const [c, sessionId] = await identified();
    await c.close(4900);
    const r = await resumeOn(sessionId, 2);
    expect((await r.expectClose()).code).toBe(Close.InvalidSeq);
    expect(h.gateway.sessionCount()).toBe(0);
    const again = await resumeOn(sessionId, 1);
    expect((await again.next()).op).toBe(Op.InvalidSession);
  });

  it('closes 4001 for a malformed Resume, and 4005 for a Resume on an identified connection', async () => {
    const r = await open();
    await r.nextOf(Op.Hello);
    r.send(Op.Resume, { token: 'Bearer user-a', session_id: 'x' });
    expect((await r.expectClose()).code).toBe(Close.UnknownOpcode);
    const [c, sessionId] = await identified('Bearer user-b');
    c.send(Op.Resume, { token: 'Bearer user-b', session_id: sessionId, seq: 1 });
    expect((await c.expectClose()).code).toBe(Close.AlreadyAuthenticated);
  });

  it('a detached session that misses more than the replay buffer is no longer resumable (op 9 false)', async () => {
    await h.close();
    h = await startGateway({ replayBufferSize: 10 });
    const [c, sessionId] = await identified();
    await c.close(4900);
    await expect.poll(() => h.gateway.stats().detached).toBe(1);
    for (let n = 0; n < 11; n++) publishTo(USER_A, n);
    expect(h.gateway.sessionCount()).toBe(0);
    const r = await resumeOn(sessionId, 1);
    expect((await r.next()).op).toBe(Op.InvalidSession);
  });

  it('exactly a full replay buffer of missed events still resumes', async () => {
    await h.close();
    h = await startGateway({ replayBufferSize: 10 });
    const [c, sessionId] = await identified();
    await c.close(4900);
    await expect.poll(() => h.gateway.stats().detached).toBe(1);
    for (let n = 0; n < 10; n++) publishTo(USER_A, n);
    const r = await resumeOn(sessionId, 1);
    const ns: number[] = [];
    for (let i = 0; i < 10; i++) ns.push(((await r.next()).d as { n: number }).n);
    expect(ns).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await r.next()).t).toBe('RESUMED');
  });

  it('answers op 9 false when the seq is older than the replay buffer of a connected session', async () => {
    await h.close();
    h = await startGateway({ replayBufferSize: 4 });
    const [c, sessionId] = await identified();
    for (let n = 0; n < 6; n++) publishTo(USER_A, n);
    h.gateway.dropConnections();
    await c.expectClose();
    const r = await resumeOn(sessionId, 1);
    expect((await r.next()).op).toBe(Op.InvalidSession);
  });
});

describe('op 7 and op 9 from the server', () => {
  it('sendReconnect: op 7, then close 4000; the reference client resumes without losing events', async () => {
    const c = client('Bearer user-a');
    const events: number[] = [];
    c.on('dispatch', (t: string, d: { n: number }) => t === 'TEST_EVENT' && events.push(d.n));
    await c.connect();
    const reconnect = once(c, 'reconnect');
    const socketClose = once<[number, string]>(c, 'socketClose');
    const resumed = once(c, 'resumed');
    publishTo(USER_A, 0);
    h.gateway.sendReconnect({ userId: USER_A });
    publishTo(USER_A, 1);
    await reconnect;
    expect((await socketClose)[0]).toBe(Close.UnknownError);
    await resumed;
    publishTo(USER_A, 2);
    await expect.poll(() => events).toEqual([0, 1, 2]);
  });

  it('sendReconnect sends op 7 before the close frame', async () => {
    const [c] = await identified();
    h.gateway.sendReconnect();
    expect(await c.next()).toEqual({ op: Op.Reconnect, d: null, s: null, t: null });
    expect(await c.expectClose()).toEqual({ code: Close.UnknownError, reason: 'Reconnect requested.' });
  });

  it('invalidateSessions(false): op 9 false, the session is gone, and the client identifies again on the same socket', async () => {
    const [c, sessionId] = await identified();
    const [other] = await identified('Bearer user-b');
    h.gateway.invalidateSessions(false, { userId: USER_A });
    expect(await c.next()).toEqual({ op: Op.InvalidSession, d: false, s: null, t: null });
    expect(h.gateway.sessionCount()).toBe(1);
    c.send(Op.Identify, { token: 'Bearer user-a', properties: { os: 'l', browser: 'b', device: 'd' } });
    const ready = await c.nextOf(0, 'READY');
    expect((ready.d as { session_id: string }).session_id).not.toBe(sessionId);
    expect(other.pending()).toEqual([]);
  });

  it('invalidateSessions(true): op 9 true, the session can be resumed with nothing lost', async () => {
    const [c, sessionId] = await identified();
    h.gateway.invalidateSessions(true, { userId: USER_A });
    expect(await c.next()).toMatchObject({ op: Op.InvalidSession, d: true });
    publishTo(USER_A, 0);
    c.send(Op.Resume, { token: 'Bearer user-a', session_id: sessionId, seq: 1 });
    expect(await c.next()).toMatchObject({ t: 'TEST_EVENT', s: 2, d: { n: 0 } });
    expect(await c.next()).toMatchObject({ t: 'RESUMED', s: 3 });
  });

  it('the reference client re-identifies after op 9 false', async () => {
    const c = client('Bearer user-b');
    const first = await c.connect();
    const ready = once<[Record<string, unknown>]>(c, 'ready');
    h.gateway.invalidateSessions(false, { userId: USER_B });
    const [second] = await ready;
    expect(second.session_id).not.toBe(first.session_id);
  });

  it('the reference client stops for good on a terminal close', async () => {
    const c = client('Bearer user-a');
    await c.connect();
    const fatal = once<[number, string]>(c, 'fatal');
    h.gateway.disconnectUser(USER_A);
    expect((await fatal)[0]).toBe(Close.AuthenticationFailed);
    expect(h.gateway.sessionCount()).toBe(0);
  });
});
