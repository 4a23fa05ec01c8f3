/**
 * One gateway node of the broker benchmark (broker-fanout.ts forks it): Fastify + the gateway on loopback, its bus on
 * the in-process log or, with BENCH_BROKER=redis://…, on the Redis log — the same classes startPlatform uses, without
 * a database. Tells the parent its URL; on {publish: n} publishes n events to every session of the deployment.
 */
import Fastify from 'fastify';
import { pino } from 'pino';
import { EventBus } from '../src/events/bus.js';
import { InProcessLog } from '../src/events/cluster-log.js';
import { RedisLog } from '../src/events/redis-log.js';
import { registerGateway, type GatewayIdentity } from '../src/gateway/index.js';

export type NodeMessage = { ready: string } | { published: number };
export type NodeCommand = { publish: number; from: number } | { stop: true };

const APP_ID = '1200000000000000001';
/** Events published per event-loop turn, so sockets are written between chunks. */
const CHUNK = 100;

/** A lobby-message-sized payload (about 300 bytes of JSON). */
function payload(i: number): Record<string, unknown> {
  return {
    id: String(1300000000000000000n + BigInt(i)),
    lobby_id: '1400000000000000001',
    author: { id: '3200000000000000001', username: 'bench', discriminator: '0', global_name: 'Bench', avatar: null },
    content: 'The quick brown fox jumps over the lazy dog, again and again.',
    metadata: { round: String(i), map: 'de_dust2' },
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

const logger = pino({ level: 'silent' });
const broker = process.env.BENCH_BROKER;
const bus = new EventBus(broker ? await RedisLog.connect(broker, logger) : new InProcessLog());
const app = Fastify({ logger: false });
registerGateway(app, {
  bus,
  authenticate: (token) => {
    const m = /^Bearer bench-(\d+)$/.exec(token);
    return m ? identity(Number(m[1])) : null;
  },
  logger,
});
await bus.log.start();
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no TCP address');
process.send!({ ready: `ws://127.0.0.1:${address.port}/gateway` } satisfies NodeMessage);

process.on('message', async (command: NodeCommand) => {
  if ('stop' in command) {
    await app.close();
    await bus.log.close();
    process.exit(0);
  }
  for (let i = 0; i < command.publish; i++) {
    bus.publish({ t: 'BENCH_EVENT', d: payload(command.from + i), to: { applicationId: APP_ID } });
    if (i % CHUNK === CHUNK - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  process.send!({ published: command.publish } satisfies NodeMessage);
});
