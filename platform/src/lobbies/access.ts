import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformContext } from '../context.js';
import { requireAny, requireBearer, requireBot, type Principal } from '../http/auth.js';
import { Errors, invalidFormBody } from '../http/errors.js';
import { sendLimited, setLimitHeaders } from '../http/rate-limit-hooks.js';
import { zodErrorTree } from '../http/validation.js';
import type { LobbyMemberRecord, LobbyRecord } from '../store/lobby-types.js';
import type { z } from 'zod';
import { LobbyErrors } from './errors.js';

/** The scope every Bearer token needs on the lobby routes (implied by sdk.social_layer). */
export const LOBBY_SCOPE = 'lobbies.write';

/** Who may call a route: the application's bot, a user token with lobbies.write, or either. */
export type LobbyAuth = 'bot' | 'bearer' | 'both';

export function lobbyCaller(ctx: PlatformContext, request: FastifyRequest, auth: LobbyAuth): Principal {
  if (auth === 'bot') return requireBot(ctx, request);
  if (auth === 'bearer') return requireBearer(ctx, request, LOBBY_SCOPE);
  return requireAny(ctx, request, LOBBY_SCOPE);
}

/**
 * Counts the request against a lobby bucket keyed by the caller's application (the published development limits
 * are per application, so every player of a game shares them). Returns true when a 429 was sent.
 */
export function limitedByApp(ctx: PlatformContext, reply: FastifyReply, bucket: string, applicationId: string): boolean {
  const state = ctx.rateLimiter.hit(bucket, `app:${applicationId}`);
  const now = ctx.now();
  setLimitHeaders(reply, state, now);
  if (!state.limited) return false;
  sendLimited(reply, state, now, 'shared');
  return true;
}

/** A lobby of the caller's application; malformed ids, other applications' lobbies and unknown ones → 404 10031. */
export function findLobby(ctx: PlatformContext, principal: Principal, id: string): LobbyRecord {
  const lobby = /^\d{1,20}$/.test(id) ? ctx.store.lobbies.get(id) : undefined;
  if (!lobby || lobby.applicationId !== principal.app.id) throw LobbyErrors.unknownLobby();
  return lobby;
}

/** The caller's membership (Bearer callers only act in lobbies they are members of) → else 403 50001. */
export function requireMember(ctx: PlatformContext, lobby: LobbyRecord, userId: string): LobbyMemberRecord {
  const member = ctx.store.lobbies.member(lobby.id, userId);
  if (!member) throw Errors.missingAccess();
  return member;
}

/** Query-string validation with the same field errors as bodies. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const input = query ?? {};
  const result = schema.safeParse(input);
  if (!result.success) throw invalidFormBody(zodErrorTree(result.error, input));
  return result.data;
}
