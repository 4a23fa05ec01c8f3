import type { PlatformKernel } from '../kernel.js';
import type { Principal } from '../http/auth.js';
import { Errors } from '../http/errors.js';
import type { RouteAuth } from '../http/route-conventions.js';
import type { LobbyMemberRecord, LobbyRecord } from '../store/lobby-types.js';
import { LobbyErrors } from './errors.js';
import { isSnowflake } from '../ids/snowflake.js';

/** The scope every Bearer token needs on the lobby routes (implied by sdk.social_layer). */
export const LOBBY_SCOPE = 'lobbies.write';

/** Who may call a route: the application's bot, a user token with lobbies.write, or either. */
export type LobbyAuth = 'bot' | 'bearer' | 'both';

const LOBBY_AUTH: Record<LobbyAuth, RouteAuth> = {
  bot: { kind: 'bot' },
  bearer: { kind: 'bearer', scope: LOBBY_SCOPE },
  both: { kind: 'any', scope: LOBBY_SCOPE },
};

/**
 * Route config of a lobby route: its callers, and the bucket counted per application (the published development
 * limits are per application, so every player of a game shares them).
 */
export function lobbyConfig(auth: LobbyAuth, bucket?: 'lobbies.write' | 'lobbies.message' | 'lobbies.link') {
  return { auth: LOBBY_AUTH[auth], ...(bucket && { rateLimit: { bucket, per: 'application' as const } }) };
}

/** A lobby of the caller's application; malformed ids, other applications' lobbies and unknown ones → 404 10031. */
export function findLobby(ctx: PlatformKernel, principal: Principal, id: string): LobbyRecord {
  const lobby = isSnowflake(id) ? ctx.store.lobbies.get(id) : undefined;
  if (!lobby || lobby.applicationId !== principal.app.id) throw LobbyErrors.unknownLobby();
  return lobby;
}

/** The caller's membership (Bearer callers only act in lobbies they are members of) → else 403 50001. */
export function requireMember(ctx: PlatformKernel, lobby: LobbyRecord, userId: string): LobbyMemberRecord {
  const member = ctx.store.lobbies.member(lobby.id, userId);
  if (!member) throw Errors.missingAccess();
  return member;
}
