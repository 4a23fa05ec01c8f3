import type { PlatformKernel } from '../../kernel.js';
import type { WakesWebhooks } from '../../webhooks/waking.js';
import type { TokenLifetimes } from '../token-lifetimes.js';
import type { OAuthServices } from '../services.js';
import { hashToken, randomToken } from '../../crypto/tokens.js';
import type { ApplicationRecord, UserRecord } from '../../store/types.js';
import { enqueueAuthorized } from '../../webhooks/events.js';
import { issueTokens } from '../issue.js';
import { withFragment, withQuery } from '../redirect-uris.js';
import type { AuthorizeRequest, RedirectableError } from './request.js';

/** Where to send the browser after the user approved: the code (or, implicit grant, the token) is attached. */
export function approveAuthorization(ctx: OAuthServices, request: AuthorizeRequest, user: UserRecord): string {
  const { app, params, scopes, redirectUri } = request;
  const location = ctx.store.transaction(() => {
    recordGrant(ctx, app, user, scopes);
    if (request.responseType === 'token') {
      const issued = issueTokens(ctx, {
        app,
        user,
        scopes,
        origin: 'oauth',
        accessSeconds: ctx.options.tokenLifetimes.accessSeconds,
        refresh: false,
      });
      return withFragment(redirectUri, {
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: String(issued.expiresIn),
        scope: scopes.join(' '),
        state: params.state,
      });
    }
    // Null when the request relied on the single registered URI; the token request may then omit it too.
    const code = createAuthorizationCode(ctx, {
      app,
      user,
      scopes,
      redirectUri: params.redirect_uri ?? null,
      codeChallenge: params.code_challenge ?? null,
      nonce: params.nonce ?? null,
    });
    return withQuery(redirectUri, { code, state: params.state });
  });
  ctx.wakeWebhooks();
  return location;
}

/**
 * Consent given outside the browser flow (the local client's AUTHORIZE): records the grant and returns a code
 * redeemable at the token endpoint like any other.
 */
export function approveCodeGrant(ctx: CodeGranting, grant: CodeGrant): string {
  const code = ctx.store.transaction(() => {
    recordGrant(ctx, grant.app, grant.user, grant.scopes);
    return createAuthorizationCode(ctx, grant);
  });
  ctx.wakeWebhooks();
  return code;
}

/**
 * What granting an authorization code needs (the local client's consent too): the kernel, webhook waking
 * (APPLICATION_AUTHORIZED is queued) and how long a code lives.
 */
export interface CodeGranting extends WakesWebhooks {
  options: { tokenLifetimes: Pick<TokenLifetimes, 'authorizationCodeSeconds'> };
}

export interface CodeGrant {
  app: ApplicationRecord;
  user: UserRecord;
  scopes: string[];
  redirectUri: string | null;
  codeChallenge: string | null;
  nonce: string | null;
}

/** Approval records a grant (the app/user pair, used for deauthorization) and queues APPLICATION_AUTHORIZED. */
function recordGrant(ctx: PlatformKernel, app: ApplicationRecord, user: UserRecord, scopes: string[]): void {
  const previous = ctx.store.grants.get(app.id, user.id);
  ctx.store.grants.upsert({
    applicationId: app.id,
    userId: user.id,
    scopes: [...new Set([...(previous?.scopes ?? []), ...scopes])],
    createdAt: previous?.createdAt ?? ctx.now(),
  });
  enqueueAuthorized(ctx, app, user, scopes);
}

function createAuthorizationCode(ctx: CodeGranting, grant: CodeGrant): string {
  const now = ctx.now();
  const code = randomToken(24);
  ctx.store.authorizationCodes.insert({
    hash: hashToken(code),
    applicationId: grant.app.id,
    userId: grant.user.id,
    scopes: grant.scopes,
    redirectUri: grant.redirectUri,
    codeChallenge: grant.codeChallenge,
    nonce: grant.nonce,
    authTime: now,
    expiresAt: now + ctx.options.tokenLifetimes.authorizationCodeSeconds * 1000,
    usedAt: null,
    issuedPairId: null,
  });
  return code;
}

export function errorRedirect(redirectUri: string, error: RedirectableError, state: string | undefined): string {
  return withQuery(redirectUri, { error: error.error, error_description: error.description, state });
}
