import type { RESTPostOAuth2ClientCredentialsResult } from 'discord-api-types/v10';
import type { PlatformKernel } from '../kernel.js';
import { hashToken, randomToken } from '../crypto/tokens.js';
import type { ApplicationRecord, TokenOrigin, UserRecord } from '../store/types.js';
import type { TokenLifetimes } from './token-lifetimes.js';
import { createIdToken, type IdTokenSigning } from './oidc/id-token.js';

/** What issuing tokens reads: the kernel, what an id_token is signed with, and how long a refresh token lives. */
export interface TokenIssuing extends PlatformKernel, IdTokenSigning {
  options: { tokenLifetimes: Pick<TokenLifetimes, 'refreshSeconds'> };
}

export interface IssueInput {
  app: ApplicationRecord;
  user: UserRecord;
  scopes: string[];
  origin: TokenOrigin;
  accessSeconds: number;
  /** Issue a refresh token with the access token. */
  refresh: boolean;
  /** Add an id_token (OIDC) with these details. */
  idToken?: { nonce?: string | null | undefined; authTime?: number | undefined };
  /** Child tokens: the parent pair, and an absolute expiry equal to the parent's. */
  parentPairId?: string;
  expiresAt?: number;
}

export interface IssuedTokens {
  pairId: string;
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  expiresAt: number;
  expiresIn: number;
  scopes: string[];
}

/**
 * Creates an access token (and optionally its refresh token and an id_token). Synchronous so it can run in the
 * same transaction as the grant it redeems; only hashes are stored.
 */
export function issueTokens(ctx: TokenIssuing, input: IssueInput): IssuedTokens {
  const now = ctx.now();
  const pairId = ctx.ids.next();
  const accessToken = randomToken(30);
  const expiresAt = input.expiresAt ?? now + input.accessSeconds * 1000;
  const base = {
    pairId,
    applicationId: input.app.id,
    userId: input.user.id,
    scopes: input.scopes,
    origin: input.origin,
    parentPairId: input.parentPairId ?? null,
    createdAt: now,
  };
  ctx.store.tokens.insert({ ...base, hash: hashToken(accessToken), kind: 'access', expiresAt });
  const issued: IssuedTokens = {
    pairId,
    accessToken,
    expiresAt,
    expiresIn: Math.max(0, Math.round((expiresAt - now) / 1000)),
    scopes: input.scopes,
  };
  if (input.refresh) {
    const refreshToken = randomToken(30);
    ctx.store.tokens.insert({
      ...base,
      hash: hashToken(refreshToken),
      kind: 'refresh',
      expiresAt: now + ctx.options.tokenLifetimes.refreshSeconds * 1000,
    });
    issued.refreshToken = refreshToken;
  }
  if (input.idToken) {
    issued.idToken = createIdToken(ctx, {
      app: input.app,
      user: input.user,
      accessToken,
      expiresInSeconds: issued.expiresIn,
      nonce: input.idToken.nonce,
      authTime: input.idToken.authTime,
    });
  }
  return issued;
}

/**
 * The token response body (platform/PROTOCOL.md §3): published `RESTPostOAuth2AccessTokenResult` when a refresh token
 * is issued, else `RESTPostOAuth2ClientCredentialsResult`; `id_token` (OIDC) when `openid` was granted.
 */
export type TokenResponseJson = RESTPostOAuth2ClientCredentialsResult & { refresh_token?: string; id_token?: string };

export function tokenResponse(issued: IssuedTokens): TokenResponseJson {
  const body: TokenResponseJson = {
    token_type: 'Bearer',
    access_token: issued.accessToken,
    expires_in: issued.expiresIn,
    scope: issued.scopes.join(' '),
  };
  if (issued.refreshToken) body.refresh_token = issued.refreshToken;
  if (issued.idToken) body.id_token = issued.idToken;
  return body;
}
