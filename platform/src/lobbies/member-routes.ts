import type { FastifyInstance } from 'fastify';
import type { PlatformContext } from '../context.js';
import { jsonBody } from '../http/body.js';
import { ApiError, Errors } from '../http/errors.js';
import { parseBody, snowflakeSchema } from '../http/validation.js';
import type { LobbyMemberRecord } from '../store/lobby-types.js';
import { findLobby, limitedByApp, lobbyCaller, requireMember } from './access.js';
import type { LobbySchemas } from './schemas.js';
import { memberChange, type Lobbies } from './service.js';

const API = '/api/v10';

function knownUserId(ctx: PlatformContext, id: string): string {
  if (!snowflakeSchema.safeParse(id).success || !ctx.store.users.get(id)) throw Errors.unknownUser();
  return id;
}

/**
 * Member routes (platform/PROTOCOL.md §10.5): upsert, bulk, remove (bot) and leave (the member, for lobbies joined by
 * secret).
 */
export function registerMemberRoutes(app: FastifyInstance, ctx: PlatformContext, lobbies: Lobbies, schemas: LobbySchemas): void {
  // Leave. Registered before the parametric route; the router prefers the static segment anyway.
  app.delete<{ Params: { lobbyId: string } }>(`${API}/lobbies/:lobbyId/members/@me`, async (request, reply) => {
    const caller = lobbyCaller(ctx, request, 'bearer');
    if (limitedByApp(ctx, reply, 'lobbies.write', caller.app.id)) return reply;
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    const member = requireMember(ctx, lobby, caller.user.id);
    // Lobbies a bot put the user in are managed by the game's server.
    if (!member.joinedBySecret) throw Errors.missingAccess();
    lobbies.run((pending) => lobbies.removeMember(lobby, caller.user.id, pending));
    return reply.code(204).send();
  });

  app.put<{ Params: { lobbyId: string; userId: string } }>(`${API}/lobbies/:lobbyId/members/:userId`, async (request, reply) => {
    const caller = lobbyCaller(ctx, request, 'bot');
    if (limitedByApp(ctx, reply, 'lobbies.write', caller.app.id)) return reply;
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    const userId = knownUserId(ctx, request.params.userId);
    const body = parseBody(schemas.member, jsonBody(request));
    const member = lobbies.run((pending) => lobbies.upsertMember(lobby, userId, memberChange(body), pending));
    return lobbies.memberJson(lobby, member);
  });

  // 1–25 upserts or removals. Unknown users fail the whole call; members that would break a limit are skipped.
  app.post<{ Params: { lobbyId: string } }>(`${API}/lobbies/:lobbyId/members/bulk`, async (request, reply) => {
    const caller = lobbyCaller(ctx, request, 'bot');
    if (limitedByApp(ctx, reply, 'lobbies.write', caller.app.id)) return reply;
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    const body = parseBody(schemas.bulk, jsonBody(request) ?? []);
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
  });

  // Idempotent for the member; the lobby must exist.
  app.delete<{ Params: { lobbyId: string; userId: string } }>(`${API}/lobbies/:lobbyId/members/:userId`, async (request, reply) => {
    const caller = lobbyCaller(ctx, request, 'bot');
    if (limitedByApp(ctx, reply, 'lobbies.write', caller.app.id)) return reply;
    const lobby = findLobby(ctx, caller, request.params.lobbyId);
    lobbies.run((pending) => lobbies.removeMember(lobby, request.params.userId, pending));
    return reply.code(204).send();
  });
}
