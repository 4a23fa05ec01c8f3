import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Close, Op } from '../../src/gateway/index.js';
import { RawClient, type GatewayPayload } from './client.js';
import { APP_1, APP_2, startGateway, USER_A, USER_B, USER_C, type Harness } from './harness.js';

let h: Harness;
const clients: RawClient[] = [];
async function session(token: string): Promise<RawClient> {
  const c = await RawClient.open(h.url);
  clients.push(c);
  await c.identify(token);
  return c;
}
/** Publishes a marker to everyone and returns what arrived before it: a fence that needs no sleeping. */
async function drain(c: RawClient): Promise<GatewayPayload[]> {
  const got: GatewayPayload[] = [];
  for (;;) {
    const p = await c.next();
    if (p.t === 'FENCE') return got;
    got.push(p);
  }
}
function fence(): void {
  h.bus.publish({ t: 'FENCE', d: null, to: { all: true } });
}

beforeEach(async () => {
  h = await startGateway();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await h.close();
});

describe('routing bus events to sessions', () => {
  it('by userIds, by applicationId, both (AND), all, and an empty audience reaches nobody', async () => {
    const a = await session('Bearer user-a'); // USER_A in APP_1
    const b = await session('Bearer user-b'); // USER_B in APP_1
    const a2 = await session('Bearer user-a-app2'); // USER_A in APP_2
    const c2 = await session('Bearer user-c-app2'); // USER_C in APP_2
    const bot = await session('bot-token-1'); // APP_1's bot
    h.bus.publish({ t: 'TO_USER_A', d: 1, to: { userIds: [USER_A] } });
    h.bus.publish({ t: 'TO_APP_2', d: 2, to: { applicationId: APP_2 } });
    h.bus.publish({ t: 'TO_A_IN_APP_1', d: 3, to: { userIds: [USER_A, USER_A], applicationId: APP_1 } });
    h.bus.publish({ t: 'TO_ALL', d: 4, to: { all: true } });
    h.bus.publish({ t: 'TO_NOBODY', d: 5, to: {} });
    h.bus.publish({ t: 'TO_NO_USERS', d: 6, to: { userIds: [] } });
    h.bus.publish({ t: 'TO_B_AND_C', d: 7, to: { userIds: [USER_B, USER_C] } });
    fence();
    const names = async (c: RawClient) => (await drain(c)).map((p) => p.t);
    expect(await names(a)).toEqual(['TO_USER_A', 'TO_A_IN_APP_1', 'TO_ALL']);
    expect(await names(b)).toEqual(['TO_ALL', 'TO_B_AND_C']);
    expect(await names(a2)).toEqual(['TO_USER_A', 'TO_APP_2', 'TO_ALL']);
    expect(await names(c2)).toEqual(['TO_APP_2', 'TO_ALL', 'TO_B_AND_C']);
    expect(await names(bot)).toEqual(['TO_ALL']);
  });

  it('numbers dispatches per session, starting after READY (s = 1)', async () => {
    const a = await session('Bearer user-a');
    const b = await session('Bearer user-b');
    h.bus.publish({ t: 'ONLY_A', d: null, to: { userIds: [USER_A] } });
    h.bus.publish({ t: 'BOTH', d: { x: 'y' }, to: { applicationId: APP_1 } });
    fence();
    expect((await drain(a)).map((p) => [p.t, p.s])).toEqual([
      ['ONLY_A', 2],
      ['BOTH', 3],
    ]);
    expect((await drain(b)).map((p) => [p.t, p.s])).toEqual([['BOTH', 2]]);
  });

  it('sends the envelope {op: 0, t, d, s} with the payload intact (unicode, nesting, null)', async () => {
    const a = await session('Bearer user-a');
    const d = { text: 'héllo ✓ 🎮 "quoted" \\ \n', nested: { list: [1, null, true], empty: {} }, none: null };
    h.bus.publish({ t: 'MESSAGE_CREATE', d, to: { userIds: [USER_A] } });
    expect(await a.next()).toEqual({ op: Op.Dispatch, t: 'MESSAGE_CREATE', d, s: 2 });
  });

  it('the bus rejects a malformed event name before anything is sent', () => {
    expect(() => h.bus.publish({ t: 'lower_case', d: null, to: { all: true } })).toThrow(TypeError);
  });

  it('a payload that cannot be serialised throws to the publisher', async () => {
    await session('Bearer user-a');
    expect(() => h.bus.publish({ t: 'BAD', d: { n: 1n }, to: { all: true } })).toThrow();
  });
});

describe('presence update (op 3)', () => {
  const presence = {
    since: null,
    status: 'online',
    afk: false,
    activities: [
      {
        name: 'Chess',
        type: 0,
        state: 'In a match',
        details: 'Ranked',
        timestamps: { start: 1_700_000_000 },
        party: { id: 'p1', size: [1, 2] },
      },
    ],
  };

  it("publishes PRESENCE_UPDATE to the application's sessions (sender included) and nowhere else", async () => {
    const a = await session('Bearer user-a');
    const b = await session('Bearer user-b');
    const c2 = await session('Bearer user-c-app2');
    a.send(Op.PresenceUpdate, presence);
    const got = await b.nextOf(0, 'PRESENCE_UPDATE');
    const d = got.d as Record<string, unknown>;
    expect(d).toMatchObject({
      user: { id: USER_A },
      status: 'online',
      client_status: { desktop: 'online' },
      since: null,
      afk: false,
      activities: [
        {
          name: 'Chess',
          type: 0,
          state: 'In a match',
          details: 'Ranked',
          party: { id: 'p1', size: [1, 2] },
          timestamps: { start: 1_700_000_000_000 },
        },
      ],
    });
    expect((d.activities as Array<{ created_at: number }>)[0]!.created_at).toBeTypeOf('number');
    expect((await a.nextOf(0, 'PRESENCE_UPDATE')).d).toEqual(d);
    fence();
    expect(await drain(c2)).toEqual([]);
  });

  it('shows invisible as offline without activities', async () => {
    const a = await session('Bearer user-a');
    a.send(Op.PresenceUpdate, { ...presence, status: 'invisible' });
    expect((await a.nextOf(0, 'PRESENCE_UPDATE')).d).toMatchObject({
      status: 'offline',
      activities: [],
      client_status: {},
    });
  });

  it('keeps only name, state, type and url of a bot activity, and url only for streams on the supported sites', async () => {
    const bot = await session('bot-token-1');
    bot.send(Op.PresenceUpdate, {
      since: null,
      status: 'online',
      afk: false,
      activities: [
        { name: 'x', type: 1, url: 'https://twitch.tv/x', state: 's', details: 'dropped' },
        { name: 'y', type: 0, url: 'https://twitch.tv/y' },
      ],
    });
    const d = (await bot.nextOf(0, 'PRESENCE_UPDATE')).d as { activities: Array<Record<string, unknown>> };
    expect(d.activities.map(({ created_at: _, ...rest }) => rest)).toEqual([
      { name: 'x', type: 1, url: 'https://twitch.tv/x', state: 's' },
      { name: 'y', type: 0 },
    ]);
  });

  it("publishes Identify's initial presence after READY", async () => {
    const b = await session('Bearer user-b');
    const a = await RawClient.open(h.url);
    clients.push(a);
    await a.identify('Bearer user-a', { presence: { ...presence, status: 'dnd' } });
    expect((await b.nextOf(0, 'PRESENCE_UPDATE')).d).toMatchObject({ user: { id: USER_A }, status: 'dnd' });
  });

  it('answers the 6th update in the window with RATE_LIMITED instead of publishing it', async () => {
    const a = await session('Bearer user-a');
    for (let i = 0; i < 6; i++) a.send(Op.PresenceUpdate, presence);
    const ts: string[] = [];
    for (let i = 0; i < 6; i++) ts.push((await a.next()).t!);
    expect(ts).toEqual([
      'PRESENCE_UPDATE',
      'PRESENCE_UPDATE',
      'PRESENCE_UPDATE',
      'PRESENCE_UPDATE',
      'PRESENCE_UPDATE',
      'RATE_LIMITED',
    ]);
    fence();
    expect(await drain(a)).toEqual([]);
  });

  it('RATE_LIMITED says which opcode and how long to wait', async () => {
    const a = await session('Bearer user-a');
    for (let i = 0; i < 6; i++) a.send(Op.PresenceUpdate, presence);
    const limited = await a.nextOf(0, 'RATE_LIMITED');
    const d = limited.d as { opcode: number; retry_after: number; meta: object };
    expect(d.opcode).toBe(Op.PresenceUpdate);
    expect(d.retry_after).toBeGreaterThan(0);
    expect(d.retry_after).toBeLessThanOrEqual(20);
    expect(d.meta).toEqual({});
  });

  it.each([
    ['an unknown status', { since: null, activities: [], status: 'busy', afk: false }],
    ['afk not a boolean', { since: null, activities: [], status: 'online', afk: 'no' }],
    ['an activity without a name', { since: null, activities: [{ type: 0 }], status: 'online', afk: false }],
    [
      'an activity type out of range',
      { since: null, activities: [{ name: 'x', type: 9 }], status: 'online', afk: false },
    ],
    [
      'three buttons',
      { since: null, activities: [{ name: 'x', type: 0, buttons: ['a', 'b', 'c'] }], status: 'online', afk: false },
    ],
    ['d null', null],
  ])('closes 4001 for a presence with %s', async (_what, d) => {
    const a = await session('Bearer user-a');
    a.send(Op.PresenceUpdate, d);
    expect((await a.expectClose()).code).toBe(Close.UnknownOpcode);
  });
});

describe('slow consumers', () => {
  it('drops a connection that stops reading once megabytes pile up; its session stays resumable', async () => {
    const a = await session('Bearer user-a');
    a.ws.pause();
    const big = { blob: 'x'.repeat(256 * 1024) };
    // Bounded: 200 × 256 KiB is far beyond the 8 MiB limit plus what the kernel buffers on loopback.
    for (let n = 0; n < 200 && h.gateway.stats().detached === 0; n++) {
      h.bus.publish({ t: 'BIG', d: big, to: { userIds: [USER_A] } });
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(h.gateway.stats()).toMatchObject({ attached: 0, detached: 1 });
    a.ws.resume();
    expect((await a.expectClose()).code).toBe(1006);
  });
});
