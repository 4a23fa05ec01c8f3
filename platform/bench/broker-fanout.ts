/**
 * Broker benchmark: gateway dispatches per second delivered to sessions spread over two nodes joined by the Redis
 * broker, against one node (with and without the broker).
 *
 *   node --import tsx platform/bench/broker-fanout.ts [--smoke]
 *
 * Each node is a child process (broker-node.ts: the gateway and the bus over the log, no database); Redis is a private
 * `redis-server` (Debian's package) on a free loopback port. The clients run in this process and count frames; one
 * node publishes every event, to every session of the deployment. A figure is sessions × events ÷ the time from the
 * publish command to the last frame received. Prints figures; asserts nothing. The nodes, Redis and the clients share
 * the machine's cores, so the figures are indicative (and more so on a machine loaded by other work).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { startTemporaryRedis } from '../test/support/redis-server.js';
import type { NodeCommand, NodeMessage } from './broker-node.js';

const smoke = process.argv.includes('--smoke');
const SESSIONS = smoke ? 20 : 200;
const EVENTS = smoke ? 100 : 2000;
const NODE_SCRIPT = fileURLToPath(new URL('./broker-node.ts', import.meta.url));
const MARKER = Buffer.from('"t":"BENCH_EVENT"');

interface Node {
  url: string;
  command(command: NodeCommand): void;
  stop(): Promise<void>;
}

async function startNode(broker: string | undefined): Promise<Node> {
  const child: ChildProcess = fork(NODE_SCRIPT, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...(broker && { BENCH_BROKER: broker }) },
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: NodeMessage) =>
      'ready' in m ? resolve(m.ready) : reject(new Error('unexpected message')),
    );
    child.once('exit', () => reject(new Error('benchmark node exited before listening')));
  });
  return {
    url,
    command: (command) => child.send(command),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ stop: true } satisfies NodeCommand);
      await exited;
    },
  };
}

/** A session that counts benchmark dispatches; `reached(n)` resolves once it has n. */
async function openSession(
  url: string,
  i: number,
): Promise<{ count: () => number; reached(n: number): Promise<void>; close(): void }> {
  const ws = new WebSocket(`${url}?v=10&encoding=json`);
  let count = 0;
  let waiting: { n: number; resolve: () => void } | null = null;
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      if (data.includes(MARKER)) {
        count++;
        if (waiting && count >= waiting.n) waiting.resolve();
        return;
      }
      const frame = JSON.parse(data.toString('utf8')) as { op: number; t?: string };
      if (frame.op === 10)
        ws.send(
          JSON.stringify({
            op: 2,
            d: { token: `Bearer bench-${i}`, properties: { os: 'linux', browser: 'bench', device: 'bench' } },
          }),
        );
      if (frame.op === 0 && frame.t === 'READY') resolve();
    });
  });
  return {
    count: () => count,
    reached: (n) => (count >= n ? Promise.resolve() : new Promise((resolve) => (waiting = { n, resolve }))),
    close: () => ws.close(1000),
  };
}

async function run(label: string, nodes: Node[], publisher: Node): Promise<void> {
  const sessions = await Promise.all(
    Array.from({ length: SESSIONS }, (_, i) => openSession(nodes[i % nodes.length]!.url, i)),
  );
  // READY comes after the session is registered on its node, so every session is a target from here on.
  const started = process.hrtime.bigint();
  publisher.command({ publish: EVENTS, from: 0 });
  await Promise.all(sessions.map((s) => s.reached(EVENTS)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const delivered = sessions.reduce((sum, s) => sum + s.count(), 0);
  const perSecond = Math.round(delivered / seconds)
    .toLocaleString('en-US')
    .padStart(9);
  console.log(
    `${label.padEnd(38)} ${String(SESSIONS).padStart(5)} sessions × ${EVENTS} events = ` +
      `${String(delivered).padStart(7)} dispatches in ${seconds.toFixed(2)} s → ${perSecond} dispatches/s`,
  );
  for (const s of sessions) s.close();
}

async function main(): Promise<void> {
  console.log(
    `broker fan-out benchmark${smoke ? ' (smoke)' : ''} — Node ${process.version}; nodes are child processes, ` +
      `clients in this process; indicative figures`,
  );
  const redis = await startTemporaryRedis();
  try {
    const single = await startNode(undefined);
    await run('one node, no broker', [single], single);
    await single.stop();

    const alone = await startNode(redis.url);
    await run('one node, Redis broker', [alone], alone);
    await alone.stop();

    const [a, b] = [await startNode(redis.url), await startNode(redis.url)];
    await run('two nodes, Redis broker (A publishes)', [a, b], a);
    await a.stop();
    await b.stop();
  } finally {
    await redis.stop();
  }
}

await main();
