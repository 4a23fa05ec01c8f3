/** GET /api/v10/gateway and /api/v10/gateway/bot (PROTOCOL.md §20.1). */
import type { GatewayBotResponse, GatewayResponse } from 'discord-api-spec';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayServer } from './gateway.js';
import type { GatewayDeps } from './types.js';
import { gatewayUrl } from './urls.js';
import { API_PREFIX } from '../http/api.js';

export function registerGatewayRoutes(scope: FastifyInstance, server: GatewayServer, deps: GatewayDeps): void {
  const urlFor = (request: FastifyRequest) => gatewayUrl(deps.publicUrl?.(), request);

  scope.get(`${API_PREFIX}/gateway`, async (request): Promise<GatewayResponse> => ({ url: urlFor(request) }));

  scope.get(`${API_PREFIX}/gateway/bot`, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    // authenticate() takes bot tokens bare and user tokens with their scheme; anything else is no credential.
    const token = header.startsWith('Bot ') ? header.slice(4) : header.startsWith('Bearer ') ? header : null;
    const identity = token ? deps.authenticate(token) : null;
    if (!identity) return reply.code(401).send({ message: '401: Unauthorized', code: 0 });
    if (identity.kind !== 'bot')
      return reply.code(403).send({ message: 'Only bots can use this endpoint', code: 20002 });
    const body: GatewayBotResponse = {
      url: urlFor(request),
      shards: 1,
      session_start_limit: server.sessionStartLimit(identity.applicationId),
    };
    return body;
  });
}
