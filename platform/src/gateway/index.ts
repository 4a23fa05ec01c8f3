/**
 * The platform's main gateway (published v10; our choices in PROTOCOL.md §20): WebSocket at /gateway plus GET
 * /api/v10/gateway(/bot). startPlatform calls registerGateway once; feature code only publishes on the EventBus.
 */
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors } from '../http/errors.js';
import { GatewayServer } from './gateway.js';
import { registerGatewayRoutes } from './http-routes.js';
import { Close, SUPPORTED_VERSIONS } from './protocol.js';
import type { GatewayDeps, GatewayHandle } from './types.js';
import { GATEWAY_PATH, gatewayUrl } from './urls.js';

export type { GatewayDeps, GatewayHandle, GatewayIdentity, GatewayStats, SessionFilter } from './types.js';
export type { GatewayOptions } from './options.js';
export { DEFAULT_GATEWAY_OPTIONS } from './options.js';
export { Close, Op } from './protocol.js';

/**
 * ws rejects bigger messages with 1009 before we see them; below this, oversize payloads (> maxPayloadBytes) get the
 * protocol's 4002. Bounds what a misbehaving client can make the server buffer.
 */
const WS_MAX_PAYLOAD = 64 * 1024;

type Query = Record<string, string | string[] | undefined>;

const DEFAULT_VERSION = '10';

/**
 * The connection URL's query: `v=10|9` (10 when left out), `encoding=json` (default), optional `compress=zlib-stream`.
 * An empty parameter (`?v=10&compress=`) counts as left out, as URL builders that always write every key send it.
 */
function parseQuery(query: Query): { version: number; zlibStream: boolean } | null {
  const one = (key: string) =>
    Array.isArray(query[key]) ? undefined : (query[key] as string | undefined) || undefined;
  const v = one('v') ?? DEFAULT_VERSION;
  const encoding = one('encoding') ?? 'json';
  const compress = one('compress');
  if (!SUPPORTED_VERSIONS.has(v) || encoding !== 'json') return null;
  if (compress !== undefined && compress !== 'zlib-stream') return null;
  return { version: Number(v), zlibStream: compress === 'zlib-stream' };
}

export function registerGateway(app: FastifyInstance, deps: GatewayDeps): GatewayHandle {
  const server = new GatewayServer(deps);

  if (!app.hasDecorator('websocketServer')) {
    app.register(fastifyWebsocket, {
      options: { maxPayload: WS_MAX_PAYLOAD },
      // Replaces the plugin's default (close every client without a code): sessions end with 1001 first.
      preClose(this: FastifyInstance, done: () => void) {
        void server.close().finally(() => {
          this.websocketServer.close();
          done();
        });
      },
    });
  } else {
    app.addHook('preClose', () => server.close());
  }

  app.register(async (scope) => {
    // With and without the trailing slash: libraries append `/?v=10…` to the URL they were given, as the published
    // gateway's URL (`wss://gateway.discord.gg/`) is used.
    for (const url of [GATEWAY_PATH, `${GATEWAY_PATH}/`])
      scope.route({
        method: 'GET',
        url,
        // A plain HTTP request (no upgrade) is answered like an unknown route, with our body (the plugin's is empty).
        handler: async () => {
          throw Errors.notFound();
        },
        wsHandler: (socket, request: FastifyRequest) => {
          const query = parseQuery(request.query as Query);
          if (!query) {
            // Retrying with the same URL cannot succeed, so the refusal is terminal.
            socket.close(Close.InvalidApiVersion, 'Invalid API version, encoding or compression.');
            return;
          }
          // request.raw.socket is the upgraded TCP/TLS socket that ws now writes to.
          server.accept(socket, request.raw.socket, { ...query, gatewayUrl: gatewayUrl(deps.publicUrl?.(), request) });
        },
      });
    registerGatewayRoutes(scope, server, deps);
  });

  return server;
}
