// Session load: SESSIONS gateway sessions held open on one platform node (its own process, in-memory database),
// all identified with the development application's bot token and heartbeating, then the node's memory per
// session: (RSS and V8 heap after a full collection, with every session open) − (the same before any), ÷ SESSIONS.
// Ends by checking every session is still alive (a heartbeat each, every one acknowledged).
// Prints figures; exits non-zero only when sessions could not be held. Numbers on a shared machine are indicative.
//   node --import tsx bench/soak-sessions.ts [--smoke]     (--smoke: 1,000 sessions, CI's size; the full run is 10,000)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const smoke = process.argv.includes('--smoke');
const SESSIONS = smoke ? 1_000 : 10_000;
/** Handshakes in flight at once (the client side's pace, so a loaded machine does not time connections out). */
const CONCURRENCY = 200;

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

const child = fork(fileURLToPath(new URL('./soak-platform-child.ts', import.meta.url)), ['--db', ':memory:'], {
  execArgv: ['--import', import.meta.resolve('tsx'), '--expose-gc'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
process.once('exit', () => child.kill('SIGKILL'));
const ready = await new Promise<{ gatewayUrl: string; devApp: { botToken: string } }>((resolve, reject) => {
  child.once('message', resolve);
  child.once('exit', (code) => reject(new Error(`platform exited (${code})`)));
});
const memory = () =>
  new Promise<Memory>((resolve) => {
    const onMessage = (m: Memory & { type?: string }) => {
      if (m.type !== 'memory') return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.send({ type: 'memory' });
  });

/** Opens one session: Hello, Identify, READY. Resolves with the socket, keeps it heartbeating. */
function openSession(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${ready.gatewayUrl}?v=10&encoding=json`);
    ws.on('error', reject);
    ws.on('close', (code) => reject(new Error(`closed ${code} before READY`)));
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8'));
      if (frame.op === 10) {
        ws.send(
          JSON.stringify({
            op: 2,
            d: {
              token: ready.devApp.botToken,
              intents: 0,
              properties: { os: 'linux', browser: 'soak', device: 'soak' },
            },
          }),
        );
        // Heartbeats at the server's interval keep the session; the timer dies with the socket.
        const timer = setInterval(
          () => ws.readyState === WebSocket.OPEN && ws.send('{"op":1,"d":null}'),
          frame.d.heartbeat_interval * 0.9,
        );
        ws.once('close', () => clearInterval(timer));
      } else if (frame.op === 0 && frame.t === 'READY') {
        ws.removeAllListeners('close');
        resolve(ws);
      }
    });
  });
}

const before = await memory();
const sockets: WebSocket[] = [];
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < SESSIONS) {
      next++;
      sockets.push(await openSession());
      if (sockets.length % 1000 === 0) console.log(`  ${sockets.length} sessions open`);
    }
  }),
);
const openSeconds = (performance.now() - started) / 1000;
const after = await memory();

// Alive: each session's heartbeat is acknowledged.
let acks = 0;
let closed = 0;
await Promise.all(
  sockets.map(
    (ws) =>
      new Promise<void>((resolve) => {
        if (ws.readyState !== WebSocket.OPEN) {
          closed++;
          return resolve();
        }
        const onMessage = (data: Buffer) => {
          if (JSON.parse(data.toString('utf8')).op !== 11) return;
          ws.off('message', onMessage);
          acks++;
          resolve();
        };
        ws.on('message', onMessage);
        ws.send('{"op":1,"d":null}');
      }),
  ),
);
const kib = (bytes: number) => (bytes / 1024 / SESSIONS).toFixed(1);
console.log(
  `soak-sessions${smoke ? ' (smoke size; the full run is 10,000)' : ''}: ${sockets.length} sessions held on one node ` +
    `(opened in ${openSeconds.toFixed(1)} s), ${acks} heartbeats acknowledged, ${closed} closed; memory per session: ` +
    `RSS ${kib(after.rss - before.rss)} KiB, V8 heap ${kib(after.heapUsed - before.heapUsed)} KiB, ` +
    `external+buffers ${kib(after.external - before.external)} KiB (indicative on a shared machine)`,
);
for (const ws of sockets) ws.terminate();
child.disconnect();
// Explicitly: ten thousand terminated sockets' handles can keep the event loop busy for a long while.
process.exit(acks === SESSIONS ? 0 : 1);
