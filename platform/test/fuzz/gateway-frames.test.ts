/**
 * A property-based fuzzer over the main gateway (fast-check) against the whole platform on a loopback port: random
 * connection queries, an optional real Identify (bot or user token), then random frames — any op code, payload
 * shapes near the real commands and far from them, sizes below and past both payload limits, text frames holding
 * invalid UTF-8, binary frames, unpaired surrogates — and finally a heartbeat. Whatever is sent, the server only ever
 * answers with well-formed gateway frames and either acknowledges the heartbeat or closes with a documented close
 * code (PROTOCOL.md, its §20 the main gateway): never an abnormal drop (1006), an internal error (1011, 4000),
 * or silence. Afterwards the platform still serves HTTP and new gateway connections.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RunningPlatform } from '../../src/index.js';
import { request } from '../support/http.js';
import { startTestPlatform } from '../support/platform.js';
import { fullUser } from '../support/social.js';

/** Modest by default (CI, 2 cores); SVCPP_FUZZ_RUNS raises it for a longer search. */
const RUNS = Number(process.env.SVCPP_FUZZ_RUNS ?? 150);
/** The whole property's time limit (a liveness guard, not a measurement): grows with the runs asked for. */
const TEST_TIMEOUT_MS = 60_000 + RUNS * 200;
/**
 * A liveness guard, not a timing assertion: an exchange the server neither acknowledges nor closes in this long is
 * a hang. Generous, because the machine running the suite may be loaded.
 */
const LIVENESS_MS = 10_000;

/** Ops the server may send to a client (v10): Dispatch, Heartbeat, Reconnect, Invalid Session, Hello, Heartbeat ACK. */
const SERVER_OPS = new Set([0, 1, 7, 9, 10, 11]);
/**
 * Close codes a client may see for bad input: ws's own (1007 invalid UTF-8, 1009 too big — the platform's 64 KiB
 * WebSocket limit), and the gateway's documented ones. 4000 (unknown error) is an internal failure, so not here.
 */
const DOCUMENTED_CLOSES = new Set([
  1000, 1001, 1007, 1009, 4001, 4002, 4003, 4004, 4005, 4007, 4008, 4009, 4010, 4011, 4012, 4013, 4014,
]);

type Frame = { text: string } | { bytes: Buffer; binary: boolean };

const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, 0, -1, 1e308, '', 'x'.repeat(3000), [], {}, '\ud800'),
);

/**
 * Stand-ins for the real tokens, which exist only once the platform is up: replaced in the frame text just before it
 * is sent.
 */
const TOKEN_STAND_INS = ['TOKEN_OF_THE_BOT', 'TOKEN_OF_THE_USER'] as const;

/** Payloads shaped like the client commands, with each field possibly wrong. */
const commandShaped: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      token: fc.oneof(fc.constantFrom(...TOKEN_STAND_INS), fc.string({ maxLength: 30 }), jsonish),
      properties: fc.oneof(fc.constant({ os: 'linux', browser: 'fuzz', device: 'fuzz' }), jsonish),
      intents: fc.oneof(fc.integer({ min: -1, max: 1 << 22 }), jsonish),
      shard: fc.oneof(fc.tuple(fc.integer({ min: -1, max: 3 }), fc.integer({ min: -1, max: 3 })), jsonish),
      compress: fc.oneof(fc.boolean(), jsonish),
      large_threshold: fc.oneof(fc.integer({ min: -1, max: 300 }), jsonish),
      session_id: fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 32 }), jsonish),
      seq: fc.oneof(fc.integer({ min: -1, max: 1000 }), jsonish),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      since: fc.oneof(fc.constant(null), fc.integer(), jsonish),
      activities: fc.oneof(
        fc.array(
          fc.record(
            {
              name: fc.oneof(fc.string({ maxLength: 140 }), jsonish),
              type: fc.oneof(fc.integer({ min: -1, max: 7 }), jsonish),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
        jsonish,
      ),
      status: fc.oneof(fc.constantFrom('online', 'idle', 'dnd', 'invisible', 'offline', ''), jsonish),
      afk: fc.oneof(fc.boolean(), jsonish),
    },
    { requiredKeys: [] },
  ),
  fc.record({ guild_id: jsonish, channel_id: jsonish, self_mute: jsonish, self_deaf: jsonish }, { requiredKeys: [] }),
);

const frame: fc.Arbitrary<Frame> = fc.oneof(
  // A well-formed envelope: any op code, a command-shaped or arbitrary d.
  fc
    .record({
      op: fc.oneof(fc.constantFrom(0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 31, 43), fc.integer({ min: -5, max: 60 })),
      d: fc.oneof(commandShaped, jsonish),
      extra: fc.dictionary(fc.constantFrom('s', 't', 'x', '__proto__'), jsonish, { maxKeys: 2 }),
    })
    .map(({ op, d, extra }) => ({ text: JSON.stringify({ ...extra, op, d }) })),
  // Envelopes that are not: op missing or not an integer, not an object, not JSON.
  fc.oneof(
    fc
      .record({ op: fc.oneof(fc.double(), fc.string(), fc.constant(null), fc.constant([1])), d: jsonish })
      .map((v) => ({ text: JSON.stringify(v) })),
    jsonish.map((v) => ({ text: JSON.stringify(v) ?? 'undefined' })),
    fc.string({ maxLength: 80 }).map((text) => ({ text })),
    fc
      .constantFrom('{', '{"op":1,"d":', '{"op":1e999}', '{"op":"1"}', '{"op":1,"d":"\\ud800"}', '\u0000', '')
      .map((text) => ({ text })),
  ),
  // Sizes: just past maxPayloadBytes (4002), past the 64 KiB WebSocket limit (1009).
  fc
    .constantFrom(4_097, 20_000, 70_000)
    .map((size) => ({ text: JSON.stringify({ op: 1, d: null, pad: 'p'.repeat(size) }) })),
  // Bytes: invalid UTF-8 in a text frame (1007), and binary frames.
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({
    bytes: Buffer.concat([
      Buffer.from('{"op":1,"d":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(bytes),
      Buffer.from('"}'),
    ]),
    binary: false,
  })),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ bytes: Buffer.from(bytes), binary: true })),
  fc.constant({ bytes: Buffer.from('{"op":1,"d":null}'), binary: true }),
);

interface Exchange {
  frames: unknown[];
  close?: { code: number; reason: string };
  acked: boolean;
  refusedUpgrade?: { status: number; body: string };
  timedOut: boolean;
}

/** Opens a socket, runs the prelude and the frames, then a heartbeat; collects what the server said. */
async function exchange(
  url: string,
  query: string,
  identifyWith: string | undefined,
  frames: Frame[],
): Promise<Exchange> {
  const result: Exchange = { frames: [], acked: false, timedOut: false };
  const ws = new WebSocket(`${url}?${query}`, { maxPayload: 1 << 24 });
  let probeSent = false;
  let hello: () => void = () => {};
  const helloSeen = new Promise<void>((resolve) => (hello = resolve));
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      result.timedOut = true;
      ws.terminate();
      resolve();
    }, LIVENESS_MS);
    const finish = () => {
      clearTimeout(timer);
      resolve();
    };
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        result.refusedUpgrade = { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') };
        finish();
      });
    });
    ws.on('error', () => {});
    ws.on('close', (code, reason) => {
      result.close = { code, reason: reason.toString() };
      finish();
    });
    ws.on('message', (data: Buffer, isBinary) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString('utf8'));
      } catch {
        parsed = { unparsable: data.toString('latin1').slice(0, 100), isBinary };
      }
      result.frames.push(parsed);
      const op = (parsed as { op?: unknown }).op;
      if (op === 10) hello();
      if (op === 11 && probeSent) {
        result.acked = true;
        ws.close(1000);
      }
    });
  });
  const opened = await Promise.race([
    new Promise<boolean>((resolve) => ws.once('open', () => resolve(true))),
    done.then(() => false),
  ]);
  if (opened) {
    await Promise.race([helloSeen, done]);
    if (identifyWith !== undefined && ws.readyState === WebSocket.OPEN) {
      ws.send(
        JSON.stringify({
          op: 2,
          d: {
            token: identifyWith,
            properties: { os: 'linux', browser: 'fuzz', device: 'fuzz' },
            ...(identifyWith.startsWith('Bearer ') ? {} : { intents: 0 }),
          },
        }),
      );
    }
    for (const f of frames) {
      if (ws.readyState !== WebSocket.OPEN) break;
      if ('text' in f) ws.send(f.text);
      else ws.send(f.bytes, { binary: f.binary });
    }
    if (ws.readyState === WebSocket.OPEN) {
      probeSent = true;
      ws.send(JSON.stringify({ op: 1, d: null }));
    }
  }
  await done;
  return result;
}

describe('gateway frames (generated)', () => {
  let platform: RunningPlatform;
  let tokens: string[];
  beforeAll(async () => {
    platform = await startTestPlatform();
    tokens = [platform.devApp.botToken, `Bearer ${(await fullUser(platform)).token}`];
  });
  afterAll(() => platform.close());

  it(
    'every random frame sequence gets well-formed frames and a heartbeat ACK or a documented close, ' +
      'never a crash or a hang',
    async () => {
      const sample = fc.record({
        query: fc.oneof(
          { weight: 6, arbitrary: fc.constant('v=10&encoding=json') },
          {
            weight: 1,
            arbitrary: fc.constantFrom('v=9', '', 'v=10&encoding=etf', 'v=11', 'v=10&compress=x', 'v=10&v=10', 'v=%ZZ'),
          },
        ),
        identify: fc.option(fc.constantFrom(0, 1), { nil: undefined }),
        frames: fc.array(frame, { maxLength: 5 }),
      });
      // What the runs reached, so a generator that stopped reaching the server's checks fails instead of passing idly.
      const closes = new Set<number>();
      let acked = 0;
      await fc.assert(
        fc.asyncProperty(sample, async (input) => {
          const identifyWith = input.identify === undefined ? undefined : tokens[input.identify];
          const frames = input.frames.map((f) =>
            'text' in f
              ? { text: f.text.replaceAll(TOKEN_STAND_INS[0], tokens[0]!).replaceAll(TOKEN_STAND_INS[1], tokens[1]!) }
              : f,
          );
          const result = await exchange(platform.gatewayUrl, input.query, identifyWith, frames);
          if (result.acked) acked++;
          if (result.close && !result.acked) closes.add(result.close.code);
          const what = JSON.stringify({
            query: input.query,
            identify: input.identify,
            close: result.close,
            frames: result.frames.slice(-3),
          }).slice(0, 600);
          expect(result.timedOut, `no answer within ${LIVENESS_MS} ms: ${what}`).toBe(false);
          if (result.refusedUpgrade) {
            expect(result.refusedUpgrade.status, what).toBeLessThan(500);
            return;
          }
          for (const f of result.frames) {
            const op = (f as { op?: unknown }).op;
            expect(
              typeof op === 'number' && SERVER_OPS.has(op),
              `a frame no client can read: ${JSON.stringify(f).slice(0, 200)}`,
            ).toBe(true);
          }
          if (!result.acked) {
            expect(result.close, what).toBeDefined();
            expect(DOCUMENTED_CLOSES.has(result.close!.code), `close ${result.close!.code}: ${what}`).toBe(true);
          }
        }),
        { numRuns: RUNS },
      );
      expect(acked, 'no run got its heartbeat acknowledged').toBeGreaterThan(0);
      expect([...closes].sort(), "the runs reached too few of the server's refusals").toEqual(
        expect.arrayContaining([1007, 1009, 4001, 4002]),
      );
      // Still alive: HTTP answers and a new connection gets Hello and its heartbeat acknowledged.
      expect((await request(`${platform.apiBase}/gateway`)).status).toBe(200);
      const after = await exchange(platform.gatewayUrl, 'v=10&encoding=json', undefined, []);
      expect(after.acked).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
