import { createHash } from 'node:crypto';
import type { PlatformUrls } from '../../http/urls.js';
import type { ApplicationRecord, UserRecord } from '../../store/types.js';
import type { OidcSigningKeys } from './signing-keys.js';

/** What signing an id_token reads: the clock, the signing keys and the issuer (the platform's URL, read when used). */
export interface IdTokenSigning {
  now(): number;
  signingKeys: OidcSigningKeys;
  urls: () => PlatformUrls;
}

export interface IdTokenInput {
  app: ApplicationRecord;
  user: UserRecord;
  accessToken: string;
  expiresInSeconds: number;
  nonce?: string | null | undefined;
  authTime?: number | undefined;
}

/** OIDC at_hash: the left half of SHA-256 over the access token, base64url (RS256 → SHA-256). */
function accessTokenHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/**
 * The id_token (claims are OURS, platform/PROTOCOL.md §3 "id_token"): iss = the platform URL, sub = user id, aud =
 * client id, exp/iat/auth_time in seconds, nonce echoed from the authorize request, at_hash, and the display fields.
 */
export function createIdToken(ctx: IdTokenSigning, input: IdTokenInput): string {
  const iat = Math.floor(ctx.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: ctx.urls().http,
    sub: input.user.id,
    aud: input.app.id,
    exp: iat + Math.max(1, input.expiresInSeconds),
    iat,
    auth_time: Math.floor((input.authTime ?? ctx.now()) / 1000),
    at_hash: accessTokenHash(input.accessToken),
    preferred_username: input.user.username,
  };
  if (input.user.globalName) claims.nickname = input.user.globalName;
  if (input.nonce) claims.nonce = input.nonce;
  return ctx.signingKeys.signJwt(claims);
}
