/**
 * Voice states of lobby calls over HTTP (PROTOCOL.md §13.1): Get Current User Voice State / Get User Voice State
 * in the guild-less form, `/lobbies/{lobby.id}/voice-states/@me|{user.id}` (OURS; the published guild paths are
 * guild-routes.ts). The body is the published voice state.
 */
import type { FastifyInstance } from 'fastify';
import type { PlatformKernel } from '../kernel.js';
import { requireAny } from '../http/auth.js';

import { findLobby, LOBBY_SCOPE, requireMember } from '../lobbies/access.js';
import { voiceStateJson, type VoiceStates } from './voice-states.js';
import { API_PREFIX } from '../http/api.js';
import { publishedError } from '../http/published-errors.js';
import { isSnowflake } from '../ids/snowflake.js';

const API = API_PREFIX;

export const unknownVoiceState = () => publishedError('UNKNOWN_VOICE_STATE');

export function registerVoiceStateRoutes(app: FastifyInstance, ctx: PlatformKernel, states: VoiceStates): void {
  // Bot or Bearer (lobbies.write); a Bearer caller reads only lobbies it is a member of (403 50001).
  app.get<{ Params: { lobbyId: string; userId: string } }>(
    `${API}/lobbies/:lobbyId/voice-states/:userId`,
    async (request) => {
      const caller = requireAny(ctx, request, LOBBY_SCOPE);
      const lobby = findLobby(ctx, caller, request.params.lobbyId);
      if (caller.kind === 'bearer') requireMember(ctx, lobby, caller.user.id);
      // `@me` is the caller: the user of a Bearer token, the bot user of a bot token.
      const userId = request.params.userId === '@me' ? caller.user.id : request.params.userId;
      if (!isSnowflake(userId)) throw unknownVoiceState();
      const state = states.get(lobby.id, userId);
      if (!state) throw unknownVoiceState();
      return voiceStateJson(state);
    },
  );
}
