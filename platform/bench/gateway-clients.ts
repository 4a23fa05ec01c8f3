/**
 * Child process of bench/gateway.ts: holds the benchmark's gateway sessions (reference clients) so that client
 * work — parsing every frame — does not run on the server's thread and the server's memory is measured alone.
 * Talks to the parent over the fork IPC channel.
 */
import { GatewayClient } from '../test/support/gateway-client.js';

export type ParentMessage =
  | { cmd: 'open'; url: string; from: number; to: number }
  | { cmd: 'count'; reportEvery: number; expected: number }
  | { cmd: 'close' };

export type ChildMessage =
  { type: 'opened'; total: number } | { type: 'counting' } | { type: 'progress'; count: number } | { type: 'closed' };

const clients: GatewayClient[] = [];
let count = 0;
let reportEvery = Number.POSITIVE_INFINITY;
let expected = Number.POSITIVE_INFINITY;

function send(message: ChildMessage): void {
  process.send?.(message);
}

function onDispatch(t: string): void {
  if (t !== 'BENCH_EVENT') return;
  count++;
  if (count % reportEvery === 0 || count === expected) send({ type: 'progress', count });
}

async function open(url: string, from: number, to: number): Promise<void> {
  const PARALLEL = 100;
  for (let start = from; start < to; start += PARALLEL) {
    const batch: Array<Promise<unknown>> = [];
    for (let i = start; i < Math.min(to, start + PARALLEL); i++) {
      const client = new GatewayClient({ url, token: `Bearer bench-${i}`, autoReconnect: false });
      client.on('dispatch', onDispatch);
      clients.push(client);
      batch.push(client.connect());
    }
    await Promise.all(batch);
  }
  send({ type: 'opened', total: clients.length });
}

process.on('message', (message: ParentMessage) => {
  if (message.cmd === 'open') void open(message.url, message.from, message.to);
  else if (message.cmd === 'count') {
    count = 0;
    reportEvery = message.reportEvery;
    expected = message.expected;
    // The parent publishes only after this: the IPC channel and the sockets are not ordered with each other.
    send({ type: 'counting' });
  } else if (message.cmd === 'close') {
    void Promise.all(clients.map((c) => c.close())).then(() => {
      send({ type: 'closed' });
      process.disconnect();
    });
  }
});
