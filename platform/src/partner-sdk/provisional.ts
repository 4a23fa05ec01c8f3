import type { ProvisionalTokenResponse } from 'discord-api-spec';
import { createProvisionalUser } from '../accounts/users.js';
import { fieldError } from '../http/errors.js';
import { issueTokens, tokenResponse, type TokenIssuing } from '../oauth/issue.js';
import type { TokenLifetimes } from '../oauth/token-lifetimes.js';
import type { ApplicationRecord, ExternalAuthType, UserRecord } from '../store/types.js';
import { ProvisionalErrors } from './errors.js';

export interface ProvisionalIdentity {
  authType: ExternalAuthType;
  issuer: string;
  externalId: string;
  displayName?: string | undefined;
  /** Bot flow: the display name is updated on every call, not only at creation. */
  updateDisplayName: boolean;
  /** Bot flow `provisional_user_id`: must name the account the identity already has (OURS). */
  expectedUserId?: string | undefined;
}

/** What issuing a provisional account's tokens reads: token issuing, and how long those tokens live. */
export interface ProvisionalIssuing extends TokenIssuing {
  options: { tokenLifetimes: Pick<TokenLifetimes, 'provisionalAccessSeconds' | 'refreshSeconds'> };
}

/** The scope string of provisional tokens (published). */
export const PROVISIONAL_SCOPES = ['sdk.social_layer'];

/**
 * Create-or-get (published): no account for the identity → a new provisional account; a provisional
 * account → its token; an identity merged into a full account → 530010 (use OAuth2).
 * Returns the token response: 7-day access token, id_token, and a refresh token only for ID-token providers.
 */
export function provisionalTokenFor(
  ctx: ProvisionalIssuing,
  app: ApplicationRecord,
  identity: ProvisionalIdentity,
): ProvisionalTokenResponse {
  if (!app.provisionalAccountsEnabled) throw ProvisionalErrors.notEnabled();
  return ctx.store.transaction(() => {
    const existing = ctx.store.identities.find(app.id, identity.authType, identity.issuer, identity.externalId);
    let user: UserRecord | undefined = existing ? ctx.store.users.get(existing.userId) : undefined;
    if (identity.expectedUserId !== undefined && user?.id !== identity.expectedUserId) {
      throw fieldError(
        ['provisional_user_id'],
        'PROVISIONAL_USER_MISMATCH',
        'Does not match the provisional account of this external user.',
      );
    }
    if (user && !user.isProvisional) throw ProvisionalErrors.identityIsFullAccount();
    if (!user) {
      user = createProvisionalUser(ctx, { applicationId: app.id, displayName: identity.displayName });
      ctx.store.identities.insert({
        applicationId: app.id,
        authType: identity.authType,
        issuer: identity.issuer,
        externalId: identity.externalId,
        userId: user.id,
        createdAt: ctx.now(),
      });
    } else if (
      identity.updateDisplayName &&
      identity.displayName !== undefined &&
      identity.displayName !== user.globalName
    ) {
      user = { ...user, globalName: identity.displayName };
      ctx.store.users.update(user);
    }
    const issued = issueTokens(ctx, {
      app,
      user,
      scopes: PROVISIONAL_SCOPES,
      origin: 'provisional',
      accessSeconds: ctx.options.tokenLifetimes.provisionalAccessSeconds,
      // Published: a refresh token comes back only for OIDC server-side authentication (and its use is deprecated).
      refresh: identity.issuer !== '',
      idToken: {},
    });
    return { ...tokenResponse(issued), id_token: issued.idToken! };
  });
}
