import { z } from 'zod';
import type { PlatformKernel } from '../../kernel.js';
import { hashToken, sha256Base64Url } from '../../crypto/tokens.js';
import { OAuthError } from '../../http/errors.js';
import { isBanned } from '../../accounts/bans.js';
import type { AuthorizationCodeRecord, UserRecord } from '../../store/types.js';
import type { AuthenticatedClient } from '../client-auth.js';
import { matchRedirectUri } from '../redirect-uris.js';
import { invalidGrant, parseOAuthForm } from './form.js';

export const authorizationCodeSchema = z.object({
  code: z.string().min(1).max(256),
  redirect_uri: z.string().min(1).max(2048).optional(),
  code_verifier: z
    .string()
    .min(43)
    .max(128)
    .regex(/^[A-Za-z0-9\-._~]+$/)
    .optional(),
});

/**
 * Checks an authorization code without consuming it. A replayed code revokes the tokens it produced
 * (RFC 6749 §4.1.2) before failing, so this runs outside the issuing transaction.
 */
export function checkAuthorizationCode(
  ctx: PlatformKernel,
  client: AuthenticatedClient,
  form: Record<string, string | string[]>,
): { record: AuthorizationCodeRecord; user: UserRecord } {
  const fields = parseOAuthForm(authorizationCodeSchema, form);
  const record = ctx.store.authorizationCodes.findByHash(hashToken(fields.code));
  if (!record || record.applicationId !== client.app.id) throw invalidGrant('code');
  if (record.usedAt !== null) {
    if (record.issuedPairId) ctx.store.tokens.deletePair(record.issuedPairId);
    throw invalidGrant('code');
  }
  if (record.expiresAt <= ctx.now()) throw invalidGrant('code');

  if (record.redirectUri !== null) {
    if (fields.redirect_uri !== record.redirectUri) throw invalidGrant('redirect_uri');
  } else if (fields.redirect_uri !== undefined && !matchRedirectUri(client.app.redirectUris, fields.redirect_uri)) {
    throw invalidGrant('redirect_uri');
  }

  if (record.codeChallenge !== null) {
    if (fields.code_verifier === undefined)
      throw new OAuthError(400, 'invalid_request', 'Missing "code_verifier" in request.');
    if (sha256Base64Url(fields.code_verifier) !== record.codeChallenge) throw invalidGrant('code_verifier');
  } else if (client.isPublic) {
    throw new OAuthError(400, 'invalid_request', 'Public clients must use PKCE (code_challenge with S256).');
  }

  const user = ctx.store.users.get(record.userId);
  if (!user || isBanned(user, ctx.now())) throw invalidGrant('code');
  return { record, user };
}
