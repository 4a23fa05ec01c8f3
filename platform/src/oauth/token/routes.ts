import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountMovers } from '../../areas/area.js';
import type { OAuthServices } from '../services.js';
import { mergeInTransaction } from '../../accounts/merge.js';
import { oauthFormBody } from '../../http/body.js';
import { OAuthError } from '../../http/errors.js';
import { resolveExternalToken } from '../../partner-sdk/external-token.js';
import type { OidcProviderVerifier } from '../../partner-sdk/oidc/verifier.js';
import type { UserRecord } from '../../store/types.js';
import { authenticateClient, type AuthenticatedClient } from '../client-auth.js';
import { issueTokens, tokenResponse, type IssuedTokens } from '../issue.js';
import { checkAuthorizationCode } from './authorization-code.js';
import { grantClientCredentials } from './client-credentials.js';
import { checkDeviceCode, DEVICE_CODE_GRANT } from './device-code.js';
import { parseMergeFields, type MergeRequest } from './form.js';
import { redeemRefreshToken } from './refresh-token.js';
import { withUnversionedAlias } from '../../http/api.js';

/** What a grant with merge parameters needs: the verifier of the external credential and the account movers. */
export interface MergeServices {
  externalTokens: OidcProviderVerifier;
  movers: AccountMovers;
}

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT];

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Redeems a user grant (code or device code), merging a provisional account into the user first when merge
 * parameters are present. The external credential is verified before the transaction (it may need the network);
 * inside it the grant is consumed, the merge runs and the tokens are issued, so a failed merge consumes nothing.
 */
async function redeemUserGrant(
  ctx: OAuthServices,
  merging: MergeServices,
  client: AuthenticatedClient,
  merge: MergeRequest | undefined,
  check: () => {
    user: UserRecord;
    scopes: string[];
    nonce?: string | null;
    authTime?: number;
    consume(pairId: string): void;
  },
): Promise<IssuedTokens> {
  check(); // fail fast on a bad grant before spending a network round trip on the external token
  const subject = merge
    ? await resolveExternalToken(ctx, merging.externalTokens, client.app, merge.authType, merge.token, {
        allowAccountToken: true,
      })
    : undefined;
  let removed: string[] = [];
  const issued = ctx.store.transaction(() => {
    const grant = check();
    if (subject) removed = mergeInTransaction(ctx, merging.movers(), client.app, grant.user, subject);
    const tokens = issueTokens(ctx, {
      app: client.app,
      user: grant.user,
      scopes: grant.scopes,
      origin: 'oauth',
      accessSeconds: ctx.options.tokenLifetimes.accessSeconds,
      refresh: true,
      ...(grant.scopes.includes('openid') ? { idToken: { nonce: grant.nonce, authTime: grant.authTime } } : {}),
    });
    grant.consume(tokens.pairId);
    return tokens;
  });
  for (const userId of removed) ctx.sessions.disconnectUser(userId, 4004);
  return issued;
}

async function handleTokenRequest(
  ctx: OAuthServices,
  merging: MergeServices,
  request: FastifyRequest,
): Promise<IssuedTokens> {
  const form = oauthFormBody(request);
  const grantType = single(form.grant_type);
  if (!grantType) {
    throw new OAuthError(400, 'invalid_request', 'Missing "grant_type" in request.', {
      grant_type: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    });
  }
  if (!GRANT_TYPES.includes(grantType))
    throw new OAuthError(
      400,
      'unsupported_grant_type',
      `Unsupported grant type (supported: ${GRANT_TYPES.join(', ')}).`,
    );
  const merge = parseMergeFields(form);
  if (merge && (grantType === 'refresh_token' || grantType === 'client_credentials')) {
    throw new OAuthError(
      400,
      'invalid_request',
      'Merges are only possible with authorization_code and device_code grants.',
    );
  }
  if (merge) {
    const bucket = ctx.rateLimiter.hit(
      'oauth2.token.merge',
      `client:${single(form.client_id) ?? request.headers.authorization ?? request.ip}`,
    );
    if (bucket.limited) throw new OAuthError(429, 'slow_down', 'Too many merge attempts; retry later.');
  }

  switch (grantType) {
    case 'authorization_code': {
      const client = authenticateClient(ctx, request, form, true);
      return redeemUserGrant(ctx, merging, client, merge, () => {
        const { record, user } = checkAuthorizationCode(ctx, client, form);
        return {
          user,
          scopes: record.scopes,
          nonce: record.nonce,
          authTime: record.authTime,
          consume: (pairId) => ctx.store.authorizationCodes.markUsed(record.hash, ctx.now(), pairId),
        };
      });
    }
    case DEVICE_CODE_GRANT: {
      const client = authenticateClient(ctx, request, form, true);
      return redeemUserGrant(ctx, merging, client, merge, () => {
        const { record, user } = checkDeviceCode(ctx, client, form);
        return {
          user,
          scopes: record.scopes,
          authTime: record.createdAt,
          consume: () => ctx.store.deviceCodes.update({ ...record, status: 'redeemed' }),
        };
      });
    }
    case 'refresh_token':
      return redeemRefreshToken(ctx, authenticateClient(ctx, request, form, true), form);
    default:
      return grantClientCredentials(ctx, authenticateClient(ctx, request, form, false), form);
  }
}

/** POST /api/oauth2/token and /api/v10/oauth2/token (form only; platform/PROTOCOL.md §3 "Token endpoint"). */
export function registerTokenRoutes(app: FastifyInstance, ctx: OAuthServices, merging: MergeServices): void {
  for (const path of withUnversionedAlias('/oauth2/token')) {
    app.post(path, { config: { rateLimit: 'oauth2.token' } }, async (request, reply) => {
      const issued = await handleTokenRequest(ctx, merging, request);
      return reply.header('Cache-Control', 'no-store').send(tokenResponse(issued));
    });
  }
}
