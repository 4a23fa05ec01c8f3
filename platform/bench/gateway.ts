/**
 * Gateway benchmark: sessions held open (memory per session) and dispatches per second fanned out to N sessions.
 *
 *   node --import tsx platform/bench/gateway.ts [--smoke]
 *
 * The server (Fastify + registerGateway on loopback) runs in this process; the clients (reference clients, which
 * JSON-parse every frame) run in one child process, so memory figures are the server's alone and the two sides
 * share the machine's cores. Received frames are counted on the client side. Prints figures; asserts nothing.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setImmediate as tick } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import Fastify from 'fastify';
import { pino } from 'pino';
import { EventBus } from '../src/events/bus.js';
import { registerGateway, type GatewayIdentity } from '../src/gateway/index.js';
import type { ChildMessage, ParentMessage } from './gateway-clients.js';

const smoke = process.argv.includes('--smoke');
const SESSIONS = smoke ? 100 : 1000;
const FANOUTS: Array<{ n: number; events: number }> = smoke
  ? [
      { n: 10, events: 200 },
      { n: 100, events: 100 },
    ]
  : [
      { n: 100, events: 3000 },
      { n: 1000, events: 600 },
    ];
/** Events allowed in flight (published but not yet counted by the clients), to keep buffers bounded. */
const WINDOW_EVENTS = 50;
const APP_ID = '1200000000000000001';

/** A lobby-message-sized payload (about 300 bytes of JSON). */
function payload(i: number): Record<string, unknown> {
  return {
    id: String(1300000000000000000n + BigInt(i)),
    lobby_id: '1400000000000000001',
    channel_id: '1400000000000000001',
    author: { id: '3200000000000000001', username: 'bench', discriminator: '0', global_name: 'Bench', avatar: null },
    content: 'The quick brown fox jumps over the lazy dog, again and again.',
    metadata: { round: String(i), map: 'de_dust2' },
    flags: 0,
    timestamp: '2025-01-01T00:00:00.000Z',
  };
}

function identity(i: number): GatewayIdentity {
  const id = String(3300000000000000000n + BigInt(i));
  return {
    kind: 'user',
    applicationId: APP_ID,
    userId: id,
    scopes: ['identify'],
    user: { id, username: `bench${i}`, discriminator: '0' },
  };
}

const gc: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

function memory(): { rss: number; heap: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external + m.arrayBuffers };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const rate = (n: number) => Math.round(n).toLocaleString('en-US');

class Child {
  private readonly proc: ChildProcess;
  private listeners: Array<(m: ChildMessage) => void> = [];
  received = 0;

  constructor() {
    // execArgv is inherited, so the child gets the same --import tsx as this process.
    this.proc = fork(fileURLToPath(new URL('./gateway-clients.ts', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.proc.on('message', (m: ChildMessage) => {
      if (m.type === 'progress') this.received = m.count;
      for (const fn of this.listeners.slice()) fn(m);
    });
  }

  send(message: ParentMessage): void {
    this.proc.send(message);
  }

  next(type: ChildMessage['type']): Promise<ChildMessage> {
    return new Promise((resolve) => {
      const fn = (m: ChildMessage) => {
        if (m.type !== type) return;
        this.listeners = this.listeners.filter((l) => l !== fn);
        resolve(m);
      };
      this.listeners.push(fn);
    });
  }
}

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  const bus = new EventBus();
  const gateway = registerGateway(app, {
    bus,
    authenticate: (token) => {
      const m = /^Bearer bench-(\d+)$/.exec(token);
      return m ? identity(Number(m[1])) : null;
    },
    logger: pino({ level: 'silent' }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  const url = `ws://127.0.0.1:${address.port}/gateway`;
  const child = new Child();

  console.log(
    `gateway benchmark${smoke ? ' (smoke)' : ''} — Node ${process.version}, server in this process, clients ` +
      `(reference client, JSON-parsing every frame) in one child process`,
  );

  // (1) Sessions held open.
  const before = memory();
  const openStart = performance.now();
  child.send({ cmd: 'open', url, from: 0, to: SESSIONS });
  await child.next('opened');
  const openMs = performance.now() - openStart;
  const after = memory();
  console.log(
    `sessions held open: ${gateway.sessionCount()} (identified in ${openMs.toFixed(0)} ms, ` +
      `${rate((SESSIONS / openMs) * 1000)} sessions/s)`,
  );
  console.log(
    `  server memory: RSS +${mib(after.rss - before.rss)} = ${kib((after.rss - before.rss) / SESSIONS)}/session; ` +
      `heap+external +${mib(after.heap - before.heap)} = ${kib((after.heap - before.heap) / SESSIONS)}/session`,
  );

  // (2) Fan-out.
  let serial = 0;
  for (const { n, events } of FANOUTS) {
    const to =
      n === SESSIONS ? { applicationId: APP_ID } : { userIds: Array.from({ length: n }, (_, i) => identity(i).userId) };
    const expected = n * events;
    // Wait for the child's acknowledgement: it comes after every progress report of the previous round (one
    // ordered IPC channel), and no event of this round can be counted before the reset.
    const counting = child.next('counting');
    child.send({ cmd: 'count', reportEvery: n * 5, expected });
    await counting;
    child.received = 0;
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    for (let published = 0; published < events;) {
      while ((published - WINDOW_EVENTS) * n > child.received) await child.next('progress');
      for (let b = 0; b < 5 && published < events; b++, published++)
        bus.publish({ t: 'BENCH_EVENT', d: payload(serial++), to });
      await tick();
    }
    while (child.received < expected) await child.next('progress');
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    console.log(
      `fan-out to N=${n}: ${rate(events)} events → ${rate(expected)} dispatches received in ${seconds.toFixed(2)} s: ` +
        `${rate(expected / seconds)} dispatches/s (${rate(events / seconds)} events/s); ` +
        `server CPU ${((cpu.user + cpu.system) / expected).toFixed(2)} µs/dispatch`,
    );
  }

  child.send({ cmd: 'close' });
  await child.next('closed');
  await gateway.close();
  await app.close();
}

await main();
