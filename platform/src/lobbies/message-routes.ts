import { callerOf, pathParams, type ApiScope } from '../http/api.js';
import type { PlatformKernel } from '../kernel.js';
import { findLobby, lobbyConfig } from './access.js';
import type { LobbyMessages } from './lobby-messages.js';
import type { LobbySchemas } from './schemas.js';

/** Lobby chat routes (platform/PROTOCOL.md §10.5); the rules are in LobbyMessages. */
export function registerMessageRoutes(
  app: ApiScope,
  ctx: PlatformKernel,
  messages: LobbyMessages,
  schemas: LobbySchemas,
): void {
  app.post(
    '/lobbies/:lobbyId/messages',
    {
      config: lobbyConfig('both', 'lobbies.message'),
      schema: { params: pathParams('lobbyId'), body: schemas.message },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      return reply.code(201).send(messages.send(caller, lobby, request.body));
    },
  );

  app.get(
    '/lobbies/:lobbyId/messages',
    { config: lobbyConfig('both'), schema: { params: pathParams('lobbyId'), querystring: schemas.history } },
    async (request) => {
      const caller = callerOf(request);
      return messages.history(
        caller,
        findLobby(ctx, caller, request.params.lobbyId),
        request.query.limit,
        request.query.after,
      );
    },
  );

  app.delete(
    '/lobbies/:lobbyId/messages/:messageId',
    { config: lobbyConfig('both', 'lobbies.message'), schema: { params: pathParams('lobbyId', 'messageId') } },
    async (request, reply) => {
      const caller = callerOf(request);
      messages.delete(caller, findLobby(ctx, caller, request.params.lobbyId), request.params.messageId);
      return reply.code(204).send();
    },
  );

  app.put(
    '/lobbies/:lobbyId/messages/:messageId/moderation-metadata',
    {
      config: lobbyConfig('bot', 'lobbies.message'),
      schema: { params: pathParams('lobbyId', 'messageId'), body: schemas.moderation },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      messages.setModerationMetadata(
        findLobby(ctx, caller, request.params.lobbyId),
        request.params.messageId,
        request.body,
      );
      return reply.code(204).send();
    },
  );
}
