import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Close, Op } from '../../src/gateway/index.js';
import { RawClient } from './client.js';
import { APP_1, APP_PRIV, startGateway, USER_A, type Harness } from './harness.js';

let h: Harness;
const clients: RawClient[] = [];
async function open(query?: string): Promise<RawClient> {
  const c = await RawClient.open(h.url, query);
  clients.push(c);
  return c;
}

beforeEach(async () => {
  h = await startGateway();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await h.close();
});

describe('hello and heartbeat', () => {
  it('sends Hello with the heartbeat interval first, and ACKs heartbeats (also before Identify)', async () => {
    const c = await open();
    const hello = await c.next();
    expect(hello).toEqual({ op: Op.Hello, d: { heartbeat_interval: 5000 }, s: null, t: null });
    c.send(Op.Heartbeat, null);
    expect(await c.next()).toEqual({ op: Op.HeartbeatAck, d: null, s: null, t: null });
    c.send(Op.Heartbeat, 17);
    expect((await c.next()).op).toBe(Op.HeartbeatAck);
  });

  it('closes 4001 on a heartbeat whose d is not a sequence or null', async () => {
    const c = await open();
    await c.next();
    c.send(Op.Heartbeat, 'x');
    expect((await c.expectClose()).code).toBe(Close.UnknownOpcode);
  });
});

describe('identify', () => {
  it('READY for a bot: v, user, session_id, resume_gateway_url, application, guilds; sequence 1', async () => {
    const c = await open();
    const ready = await c.identify('bot-token-1', { shard: [0, 1] });
    expect(ready.s).toBe(1);
    const d = ready.d as Record<string, unknown>;
    expect(d).toMatchObject({
      v: 10,
      user: { id: '2100000000000000001', bot: true },
      guilds: [],
      shard: [0, 1],
      resume_gateway_url: h.url,
      application: { id: APP_1, flags: 0 },
    });
    expect(d.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(d).not.toHaveProperty('lobbies');
    expect(h.gateway.sessionCount()).toBe(1);
  });

  it('READY for a user session carries the user-session lists, empty until readyExtras fills them', async () => {
    const c = await open();
    const d = (await c.identify('Bearer user-a')).d as Record<string, unknown>;
    expect(d).toMatchObject({
      v: 10,
      user: { id: USER_A, username: 'alice' },
      application: { id: APP_1, flags: 0 },
      lobbies: [],
      relationships: [],
      game_relationships: [],
      presences: [],
      private_channels: [],
      guilds: [],
    });
  });

  it('readyExtras adds fields but cannot replace session_id or resume_gateway_url', async () => {
    await h.close();
    h = await startGateway(
      {},
      { readyExtras: (id) => ({ lobbies: [{ id: 'l1' }], scopes: id.scopes, session_id: 'forged' }) },
    );
    const c = await open();
    const d = (await c.identify('Bearer user-a')).d as Record<string, unknown>;
    expect(d.lobbies).toEqual([{ id: 'l1' }]);
    expect(d.scopes).toEqual(['identify', 'sdk.social_layer']);
    expect(d.session_id).not.toBe('forged');
  });

  it('takes v=10 when the URL names no version, as clients that leave it out expect', async () => {
    const c = await open('encoding=json');
    expect(((await c.identify('Bearer user-a')).d as { v: number }).v).toBe(10);
  });

  it('accepts v=9 (the observed SDK protocol) and reports it in READY', async () => {
    const c = await open('v=9&encoding=json');
    expect(((await c.identify('Bearer user-a')).d as { v: number }).v).toBe(9);
  });

  it.each([
    ['an unknown version', 'v=8&encoding=json'],
    ['ETF', 'v=10&encoding=etf'],
    ['zstd-stream', 'v=10&encoding=json&compress=zstd-stream'],
  ])('closes 4012 (terminal) for %s in the URL', async (_what, query) => {
    const c = await open(query);
    expect((await c.expectClose()).code).toBe(Close.InvalidApiVersion);
  });

  it('closes 4004 for an unknown token, and no session exists', async () => {
    const c = await open();
    await c.nextOf(Op.Hello);
    c.send(Op.Identify, { token: 'nope', properties: { os: 'l', browser: 'b', device: 'd' }, intents: 0 });
    expect(await c.expectClose()).toEqual({ code: Close.AuthenticationFailed, reason: 'Authentication failed.' });
    expect(h.gateway.sessionCount()).toBe(0);
  });

  it.each([
    ['no token', { properties: { os: 'l', browser: 'b', device: 'd' }, intents: 0 }],
    ['no properties', { token: 'bot-token-1', intents: 0 }],
    ['a non-string token', { token: 5, properties: { os: 'l', browser: 'b', device: 'd' }, intents: 0 }],
    [
      'large_threshold out of range',
      { token: 'bot-token-1', properties: { os: 'l', browser: 'b', device: 'd' }, intents: 0, large_threshold: 300 },
    ],
    ['d null', null],
    ['d an array', []],
  ])('closes 4001 for an Identify with %s', async (_what, d) => {
    const c = await open();
    await c.nextOf(Op.Hello);
    c.send(Op.Identify, d);
    expect((await c.expectClose()).code).toBe(Close.UnknownOpcode);
  });

  it('closes 4005 on a second Identify and keeps the session resumable', async () => {
    const c = await open();
    await c.identify('bot-token-1');
    c.send(Op.Identify, { token: 'bot-token-1', properties: { os: 'l', browser: 'b', device: 'd' }, intents: 0 });
    expect((await c.expectClose()).code).toBe(Close.AlreadyAuthenticated);
    expect(h.gateway.stats()).toMatchObject({ attached: 0, detached: 1 });
  });

  it('closes 4003 for a command before Identify', async () => {
    const c = await open();
    await c.nextOf(Op.Hello);
    c.send(Op.PresenceUpdate, { since: null, activities: [], status: 'online', afk: false });
    expect((await c.expectClose()).code).toBe(Close.NotAuthenticated);
  });

  it.each([
    ['[1, 1]', [1, 1]],
    ['[-1, 2]', [-1, 2]],
    ['[0, 0]', [0, 0]],
  ])('closes 4010 for shard %s', async (_what, shard) => {
    const c = await open();
    await c.nextOf(Op.Hello);
    c.send(Op.Identify, {
      token: 'bot-token-1',
      properties: { os: 'l', browser: 'b', device: 'd' },
      intents: 0,
      shard,
    });
    expect((await c.expectClose()).code).toBe(Close.InvalidShard);
  });

  it.each([
    ['missing for a bot', undefined],
    ['negative', -1],
    ['fractional', 1.5],
    ['beyond 31 bits', 2 ** 31],
  ])('closes 4013 when intents are %s', async (_what, intents) => {
    const c = await open();
    await c.nextOf(Op.Hello);
    c.send(Op.Identify, { token: 'bot-token-1', properties: { os: 'l', browser: 'b', device: 'd' }, intents });
    expect((await c.expectClose()).code).toBe(Close.InvalidIntents);
  });

  it('closes 4014 for a privileged intent the application may not use, and allows the one it may', async () => {
    const denied = await open();
    await denied.nextOf(Op.Hello);
    denied.send(Op.Identify, {
      token: 'bot-token-1',
      properties: { os: 'l', browser: 'b', device: 'd' },
      intents: 1 << 8,
    });
    expect((await denied.expectClose()).code).toBe(Close.DisallowedIntents);

    const allowed = await open();
    const ready = await allowed.identify('bot-token-priv', { intents: (1 << 8) | (1 << 0) });
    expect(ready.d).toMatchObject({ application: { id: APP_PRIV, flags: 1 << 12 } });
    const members = await open();
    await members.nextOf(Op.Hello);
    members.send(Op.Identify, {
      token: 'bot-token-priv',
      properties: { os: 'l', browser: 'b', device: 'd' },
      intents: 1 << 1,
    });
    expect((await members.expectClose()).code).toBe(Close.DisallowedIntents);
  });
});

describe('decoding and limits', () => {
  it('closes 4002 for a payload that is not JSON', async () => {
    const c = await open();
    await c.nextOf(Op.Hello);
    c.sendRaw('{not json');
    expect((await c.expectClose()).code).toBe(Close.DecodeError);
  });

  it.each([
    ['a JSON array', '[1,2]'],
    ['no op', '{"d":null}'],
    ['a string op', '{"op":"1","d":null}'],
    ['a fractional op', '{"op":1.5,"d":null}'],
  ])('closes 4002 for %s', async (_what, raw) => {
    const c = await open();
    await c.nextOf(Op.Hello);
    c.sendRaw(raw);
    expect((await c.expectClose()).code).toBe(Close.DecodeError);
  });

  it('accepts exactly 4096 bytes and closes 4002 at 4097', async () => {
    const c = await open();
    await c.nextOf(Op.Hello);
    const base = '{"op":1,"d":null,"pad":""}';
    const fits = base.replace('""', `"${'x'.repeat(4096 - base.length)}"`);
    expect(Buffer.byteLength(fits)).toBe(4096);
    c.sendRaw(fits);
    expect((await c.next()).op).toBe(Op.HeartbeatAck);
    c.sendRaw(fits.replace('"x', '"xx'));
    expect(await c.expectClose()).toEqual({ code: Close.DecodeError, reason: 'Payload too large.' });
  });

  it('closes 4001 for an unknown opcode and for receive-only opcodes', async () => {
    for (const op of [5, 99, Op.Dispatch, Op.HeartbeatAck]) {
      const c = await open();
      await c.identify('bot-token-1');
      c.send(op, null);
      expect((await c.expectClose()).code).toBe(Close.UnknownOpcode);
    }
  });

  it('closes 4001 for a v10 command this server does not serve yet (op 4)', async () => {
    const c = await open();
    await c.identify('bot-token-1');
    c.send(Op.VoiceStateUpdate, { guild_id: '1', channel_id: null, self_mute: false, self_deaf: false });
    expect((await c.expectClose()).code).toBe(Close.UnknownOpcode);
  });

  it('closes 4008 on the 121st payload in a window, and the session stays resumable', async () => {
    await h.close();
    h = await startGateway({ sendLimit: { count: 120, windowMs: 60_000 } });
    const c = await open();
    await c.identify('bot-token-1'); // payload 1
    for (let i = 0; i < 119; i++) c.send(Op.Heartbeat, null); // payloads 2..120
    for (let i = 0; i < 119; i++) expect((await c.next()).op).toBe(Op.HeartbeatAck);
    c.send(Op.Heartbeat, null); // 121
    expect(await c.expectClose()).toEqual({ code: Close.RateLimited, reason: 'You are being rate limited.' });
    expect(h.gateway.stats()).toMatchObject({ detached: 1 });
  });
});

describe('timeouts', () => {
  it('asks for a heartbeat with op 1, then drops a silent connection without a close code; its session stays resumable', async () => {
    await h.close();
    // op 1 after 100 + 300 ms of silence, the drop after 100 + 600 ms: far enough apart for a loaded machine.
    h = await startGateway({ heartbeatIntervalMs: 100, heartbeatGraceMs: 600 });
    const c = await open();
    await c.identify('bot-token-1');
    expect(await c.nextOf(Op.Heartbeat)).toEqual({ op: Op.Heartbeat, d: null, s: null, t: null });
    const closed = await c.expectClose();
    expect(closed.code).toBe(1006); // no close frame: abnormal closure as seen by the client
    await expect.poll(() => h.gateway.stats()).toEqual({ connections: 0, attached: 0, detached: 1 });
  });

  it('keeps a connection that heartbeats', async () => {
    await h.close();
    h = await startGateway({ heartbeatIntervalMs: 100, heartbeatGraceMs: 400 });
    const c = await open();
    await c.identify('bot-token-1');
    for (let i = 0; i < 8; i++) {
      c.send(Op.Heartbeat, 1);
      await c.nextOf(Op.HeartbeatAck);
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(h.gateway.stats()).toMatchObject({ connections: 1, attached: 1 });
  });

  it('closes 4009 when a connection never identifies', async () => {
    await h.close();
    h = await startGateway({ heartbeatIntervalMs: 100, heartbeatGraceMs: 100 });
    const c = await open();
    expect((await c.expectClose()).code).toBe(Close.SessionTimedOut);
  });

  it('forgets a dropped session after the resume window', async () => {
    await h.close();
    h = await startGateway({ resumeWindowMs: 100, heartbeatGraceMs: 40 });
    const c = await open();
    await c.identify('bot-token-1');
    h.gateway.dropConnections();
    await c.expectClose();
    expect(h.gateway.sessionCount()).toBe(1);
    await expect.poll(() => h.gateway.sessionCount(), { timeout: 3000 }).toBe(0);
  });
});

describe('ending sessions', () => {
  it('a client closing with 1000 ends its session; with 4900 keeps it resumable', async () => {
    const a = await open();
    await a.identify('bot-token-1');
    const b = await open();
    await b.identify('Bearer user-a');
    expect(h.gateway.sessionCount()).toBe(2);
    await a.close(1000);
    await b.close(4900);
    await expect.poll(() => h.gateway.stats()).toEqual({ connections: 0, attached: 0, detached: 1 });
  });

  it('disconnectUser closes with 4004 by default and the session is gone (terminal)', async () => {
    const c = await open();
    await c.identify('Bearer user-a');
    const other = await open();
    await other.identify('Bearer user-b');
    h.gateway.disconnectUser(USER_A);
    expect((await c.expectClose()).code).toBe(Close.AuthenticationFailed);
    expect(h.gateway.sessionCount()).toBe(1);
    await expect.poll(() => h.gateway.stats().connections).toBe(1);
  });

  it('disconnectUser with a resumable code keeps the session', async () => {
    const c = await open();
    await c.identify('Bearer user-a');
    h.gateway.disconnectUser(USER_A, Close.UnknownError);
    expect((await c.expectClose()).code).toBe(Close.UnknownError);
    expect(h.gateway.stats()).toMatchObject({ detached: 1 });
  });
});
