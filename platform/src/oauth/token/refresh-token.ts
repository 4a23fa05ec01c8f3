import { z } from 'zod';
import type { OAuthServices } from '../services.js';
import { hashToken } from '../../crypto/tokens.js';
import { OAuthError } from '../../http/errors.js';
import { isBanned } from '../../accounts/bans.js';
import type { AuthenticatedClient } from '../client-auth.js';
import { issueTokens, type IssuedTokens } from '../issue.js';
import { parseScopeString } from '../scopes.js';
import { invalidGrant, parseOAuthForm } from './form.js';

export const refreshTokenSchema = z.object({
  refresh_token: z.string().min(1).max(256),
  scope: z.string().min(1).max(2048).optional(),
});

/**
 * Rotating refresh (the old access and refresh tokens die with the exchange). A refresh token that was
 * revoked, unmerged, banned or already used yields `invalid_grant` (spec: treat it like APPLICATION_DEAUTHORIZED).
 */
export function redeemRefreshToken(
  ctx: OAuthServices,
  client: AuthenticatedClient,
  form: Record<string, string | string[]>,
): IssuedTokens {
  const fields = parseOAuthForm(refreshTokenSchema, form);
  return ctx.store.transaction(() => {
    const now = ctx.now();
    const record = ctx.store.tokens.findByHash(hashToken(fields.refresh_token));
    if (!record || record.kind !== 'refresh' || record.applicationId !== client.app.id || record.expiresAt <= now) {
      throw invalidGrant('refresh_token');
    }
    const user = ctx.store.users.get(record.userId);
    if (!user || isBanned(user, now)) throw invalidGrant('refresh_token');
    let scopes = record.scopes;
    if (fields.scope !== undefined) {
      const narrowed = parseScopeString(fields.scope);
      if (narrowed.some((scope) => !record.scopes.includes(scope))) {
        throw new OAuthError(400, 'invalid_scope', 'The requested scope exceeds the scope granted.');
      }
      scopes = narrowed;
    }
    ctx.store.tokens.deletePair(record.pairId);
    const provisional = record.origin === 'provisional';
    return issueTokens(ctx, {
      app: client.app,
      user,
      scopes,
      origin: record.origin,
      accessSeconds: provisional
        ? ctx.options.tokenLifetimes.provisionalAccessSeconds
        : ctx.options.tokenLifetimes.accessSeconds,
      refresh: true,
      ...(scopes.includes('openid') || provisional ? { idToken: {} } : {}),
    });
  });
}
