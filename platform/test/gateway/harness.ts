/**
 * A Fastify app with only the gateway registered, on an ephemeral loopback port, authenticating against a fixed
 * token table — the gateway's own tests need nothing else from the platform.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { EventBus } from '../../src/events/bus.js';
import {
  registerGateway,
  type GatewayDeps,
  type GatewayHandle,
  type GatewayIdentity,
  type GatewayOptions,
} from '../../src/gateway/index.js';

export const APP_1 = '1100000000000000001';
export const APP_2 = '1100000000000000002';
export const APP_PRIV = '1100000000000000003';

function user(id: string, username: string, bot = false): Record<string, unknown> {
  return { id, username, discriminator: '0', global_name: null, avatar: null, ...(bot && { bot: true }) };
}

/** token (as Identify/Resume send it) → identity. */
export function tokenTable(): Map<string, GatewayIdentity> {
  return new Map<string, GatewayIdentity>([
    [
      'bot-token-1',
      {
        kind: 'bot',
        applicationId: APP_1,
        userId: '2100000000000000001',
        scopes: ['bot'],
        user: user('2100000000000000001', 'app1-bot', true),
      },
    ],
    // This application may use GUILD_PRESENCES (GATEWAY_PRESENCE flag 1 << 12).
    [
      'bot-token-priv',
      {
        kind: 'bot',
        applicationId: APP_PRIV,
        userId: '2100000000000000003',
        scopes: ['bot'],
        user: user('2100000000000000003', 'priv-bot', true),
        applicationFlags: 1 << 12,
      },
    ],
    [
      'Bearer user-a',
      {
        kind: 'user',
        applicationId: APP_1,
        userId: '3100000000000000001',
        scopes: ['identify', 'sdk.social_layer'],
        user: user('3100000000000000001', 'alice'),
      },
    ],
    [
      'Bearer user-b',
      {
        kind: 'user',
        applicationId: APP_1,
        userId: '3100000000000000002',
        scopes: ['identify', 'sdk.social_layer'],
        user: user('3100000000000000002', 'bob'),
      },
    ],
    [
      'Bearer user-a-app2',
      {
        kind: 'user',
        applicationId: APP_2,
        userId: '3100000000000000001',
        scopes: ['identify'],
        user: user('3100000000000000001', 'alice'),
      },
    ],
    [
      'Bearer user-c-app2',
      {
        kind: 'user',
        applicationId: APP_2,
        userId: '3100000000000000003',
        scopes: ['identify'],
        user: user('3100000000000000003', 'carol'),
      },
    ],
  ]);
}

export const USER_A = '3100000000000000001';
export const USER_B = '3100000000000000002';
export const USER_C = '3100000000000000003';

export interface Harness {
  app: FastifyInstance;
  bus: EventBus;
  gateway: GatewayHandle;
  tokens: Map<string, GatewayIdentity>;
  /** ws://127.0.0.1:<port>/gateway */
  url: string;
  /** http://127.0.0.1:<port> */
  httpUrl: string;
  close(): Promise<void>;
}

/** Test defaults: timers short enough to exercise, long enough never to fire by accident in other tests. */
export const TEST_OPTIONS: Partial<GatewayOptions> = { heartbeatIntervalMs: 5000, heartbeatGraceMs: 5000 };

export async function startGateway(
  options: Partial<GatewayOptions> = {},
  extra: Pick<GatewayDeps, 'readyExtras' | 'publicUrl'> = {},
): Promise<Harness> {
  const app = Fastify({ logger: false });
  const bus = new EventBus();
  const tokens = tokenTable();
  const gateway = registerGateway(app, {
    bus,
    authenticate: (token) => tokens.get(token) ?? null,
    logger: pino({ level: 'silent' }),
    options: { ...TEST_OPTIONS, ...options },
    ...extra,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  const httpUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    bus,
    gateway,
    tokens,
    url: `ws://127.0.0.1:${address.port}/gateway`,
    httpUrl,
    close: () => app.close(),
  };
}
