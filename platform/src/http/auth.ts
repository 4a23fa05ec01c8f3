import type { FastifyRequest } from 'fastify';
import type { PlatformKernel } from '../kernel.js';
import { hashToken } from '../crypto/tokens.js';
import { hasScope } from '../oauth/scopes.js';
import type { ApplicationRecord, TokenRecord, UserRecord } from '../store/types.js';
import { isBanned } from '../accounts/bans.js';
import { Errors } from './errors.js';

export interface BotPrincipal {
  kind: 'bot';
  app: ApplicationRecord;
  user: UserRecord;
}

export interface BearerPrincipal {
  kind: 'bearer';
  app: ApplicationRecord;
  user: UserRecord;
  token: TokenRecord;
}

export type Principal = BotPrincipal | BearerPrincipal;

/** Looks up a bot token; undefined when unknown. */
export function findBot(ctx: PlatformKernel, token: string): BotPrincipal | undefined {
  const app = ctx.store.applications.findByBotToken(token);
  if (!app) return undefined;
  const user = ctx.store.users.get(app.botUserId);
  return user ? { kind: 'bot', app, user } : undefined;
}

/** Looks up a live access token (not expired, not revoked, user not banned); undefined otherwise. */
export function findBearer(ctx: PlatformKernel, token: string): BearerPrincipal | undefined {
  const record = ctx.store.tokens.findByHash(hashToken(token));
  if (!record || record.kind !== 'access' || record.expiresAt <= ctx.now()) return undefined;
  const app = ctx.store.applications.get(record.applicationId);
  const user = ctx.store.users.get(record.userId);
  if (!app || !user || isBanned(user, ctx.now())) return undefined;
  return { kind: 'bearer', app, user, token: record };
}

/**
 * Reads `Authorization: Bot <token>` or `Bearer <token>` (platform/PROTOCOL.md §2 "Credentials").
 * Missing → 401 code 0; a bad bot token → 401 50014; a bad access token → 401 50025.
 */
export function authenticate(ctx: PlatformKernel, request: FastifyRequest): Principal {
  const header = request.headers.authorization;
  if (!header) throw Errors.unauthorized();
  const space = header.indexOf(' ');
  // Schemes are case-insensitive (RFC 9110 §11.1): `bot <token>` is `Bot <token>`.
  const scheme = space > 0 ? header.slice(0, space).toLowerCase() : '';
  const credential = space > 0 ? header.slice(space + 1).trim() : '';
  if (scheme === 'bot') {
    const bot = credential ? findBot(ctx, credential) : undefined;
    if (!bot) throw Errors.invalidBotToken();
    return bot;
  }
  if (scheme === 'bearer') {
    const bearer = credential ? findBearer(ctx, credential) : undefined;
    if (!bearer) throw Errors.invalidAccessToken();
    return bearer;
  }
  throw Errors.unauthorized();
}

export function requireBot(ctx: PlatformKernel, request: FastifyRequest): BotPrincipal {
  const principal = authenticate(ctx, request);
  if (principal.kind !== 'bot') throw Errors.onlyBotsCanUse();
  return principal;
}

/** A user access token that holds `scope` (after expansion of the sdk.* scopes). */
export function requireBearer(ctx: PlatformKernel, request: FastifyRequest, scope?: string): BearerPrincipal {
  const principal = authenticate(ctx, request);
  if (principal.kind !== 'bearer') throw Errors.botsCannotUse();
  if (scope && !hasScope(principal.token.scopes, scope)) throw Errors.missingScope(scope);
  return principal;
}

/** Either credential; a Bearer token must hold `scope`. */
export function requireAny(ctx: PlatformKernel, request: FastifyRequest, scope?: string): Principal {
  const principal = authenticate(ctx, request);
  if (principal.kind === 'bearer' && scope && !hasScope(principal.token.scopes, scope))
    throw Errors.missingScope(scope);
  return principal;
}
