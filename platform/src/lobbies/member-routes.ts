import { callerOf, type ApiScope, pathParams } from '../http/api.js';
import type { PlatformKernel } from '../kernel.js';
import { ApiError, Errors } from '../http/errors.js';
import { snowflakeSchema } from '../http/validation.js';
import type { LobbyMemberRecord } from '../store/lobby-types.js';
import { findLobby, lobbyConfig, requireMember } from './access.js';
import type { LobbySchemas } from './schemas.js';
import { memberChange, type Lobbies } from './service.js';

function knownUserId(ctx: PlatformKernel, id: string): string {
  if (!snowflakeSchema.safeParse(id).success || !ctx.store.users.get(id)) throw Errors.unknownUser();
  return id;
}

/**
 * Member routes (platform/PROTOCOL.md §10.5): upsert, bulk, remove (bot) and leave (the member, for lobbies joined by
 * secret).
 */
export function registerMemberRoutes(
  app: ApiScope,
  ctx: PlatformKernel,
  lobbies: Lobbies,
  schemas: LobbySchemas,
): void {
  // Leave. Registered before the parametric route; the router prefers the static segment anyway.
  app.delete(
    '/lobbies/:lobbyId/members/@me',
    { config: lobbyConfig('bearer', 'lobbies.write'), schema: { params: pathParams('lobbyId') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      const member = requireMember(ctx, lobby, caller.user.id);
      // Lobbies a bot put the user in are managed by the game's server.
      if (!member.joinedBySecret) throw Errors.missingAccess();
      lobbies.run((pending) => lobbies.removeMember(lobby, caller.user.id, pending));
      return reply.code(204).send();
    },
  );

  app.put(
    '/lobbies/:lobbyId/members/:userId',
    {
      config: lobbyConfig('bot', 'lobbies.write'),
      schema: { params: pathParams('lobbyId', 'userId'), body: schemas.member },
    },
    async (request) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      const userId = knownUserId(ctx, request.params.userId);
      const body = request.body;
      const member = lobbies.run((pending) => lobbies.upsertMember(lobby, userId, memberChange(body), pending));
      return lobbies.memberJson(lobby, member);
    },
  );

  // 1–25 upserts or removals. Unknown users fail the whole call; members that would break a limit are skipped.
  app.post(
    '/lobbies/:lobbyId/members/bulk',
    { config: lobbyConfig('bot', 'lobbies.write'), schema: { params: pathParams('lobbyId'), body: schemas.bulk } },
    async (request) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      const body = request.body;
      for (const entry of body) knownUserId(ctx, entry.id);
      const upserted = lobbies.run((pending) => {
        const out = new Set<string>();
        for (const entry of body) {
          if (entry.remove_member) {
            lobbies.removeMember(lobby, entry.id, pending);
            continue;
          }
          try {
            out.add(lobbies.upsertMember(lobby, entry.id, memberChange(entry), pending).userId);
          } catch (error) {
            if (!(error instanceof ApiError && (error.code === 30050 || error.code === 30051))) throw error;
          }
        }
        return out;
      });
      // Each upserted member once, as stored at the end (a later entry may have removed it again).
      return [...upserted]
        .map((userId) => ctx.store.lobbies.member(lobby.id, userId))
        .filter((member): member is LobbyMemberRecord => member !== undefined)
        .map((member) => lobbies.memberJson(lobby, member));
    },
  );

  // Idempotent for the member; the lobby must exist.
  app.delete(
    '/lobbies/:lobbyId/members/:userId',
    { config: lobbyConfig('bot', 'lobbies.write'), schema: { params: pathParams('lobbyId', 'userId') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      lobbies.run((pending) => lobbies.removeMember(lobby, request.params.userId, pending));
      return reply.code(204).send();
    },
  );
}
