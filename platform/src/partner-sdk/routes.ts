import { z } from 'zod';
import type { PlatformKernel } from '../kernel.js';
import type { AccessEnding } from '../accounts/access-ending.js';
import { unmergeIdentity } from '../accounts/unmerge.js';
import type { AccountMovers } from '../areas/area.js';
import type { OidcProviderVerifier } from './oidc/verifier.js';
import { findBearer, authenticate } from '../http/auth.js';
import { Errors, fieldError } from '../http/errors.js';
import { snowflakeSchema } from '../http/validation.js';
import { bearerOf, botOf, type ApiArea } from '../http/api.js';
import { constantTimeEqual } from '../crypto/tokens.js';
import { issueTokens } from '../oauth/issue.js';
import type { ApplicationRecord } from '../store/types.js';
import { userJson } from '../users/serialize.js';
import { ProvisionalErrors } from './errors.js';
import { BOT_ISSUED, externalAuthTokenSchema, externalAuthTypeSchema, resolveExternalToken } from './external-token.js';
import { PROVISIONAL_SCOPES, provisionalTokenFor, type ProvisionalIssuing } from './provisional.js';

/** What the partner-SDK routes use: issuing provisional tokens, and ending access (an unmerge deauthorizes). */
export interface PartnerSdkServices extends ProvisionalIssuing, AccessEnding {}

const botTokenSchema = z.object({
  external_user_id: z.string().min(1).max(1024),
  preferred_global_name: z.string().min(1).max(32).optional(),
  provisional_user_id: snowflakeSchema.optional(),
});

const externalTokenSchema = z.object({
  client_id: snowflakeSchema,
  client_secret: z.string().max(1024).nullable().optional(),
  external_auth_type: externalAuthTypeSchema,
  external_auth_token: externalAuthTokenSchema,
});

const unmergeBotSchema = z.object({
  external_user_id: z.string().min(1).max(1024),
});

const childTokenSchema = z.object({
  parent_access_token: z.string().min(1).max(256),
  child_application_id: snowflakeSchema,
  parent_client_secret: z.string().min(1).max(1024).optional(),
});

const displayNameSchema = z.object({
  global_name: z.string().trim().min(1).max(32),
});

/**
 * The client of a secret-in-body request. A missing/null secret is the public-client form (OURS): allowed only
 * for applications flagged public_client. A wrong secret is 530007.
 */
function clientFromBody(ctx: PlatformKernel, clientId: string, secret: string | null | undefined): ApplicationRecord {
  const app = ctx.store.applications.get(clientId);
  if (!app) throw fieldError(['client_id'], 'UNKNOWN_APPLICATION', 'Unknown application.');
  if (secret === undefined || secret === null || secret === '') {
    if (!app.publicClient) throw ProvisionalErrors.invalidClientSecret();
    return app;
  }
  if (!constantTimeEqual(secret, app.clientSecret)) throw ProvisionalErrors.invalidClientSecret();
  return app;
}

/** Provisional accounts (platform/PROTOCOL.md §5); `verifier` proves ID tokens, an unmerge runs `movers`. */
export const partnerSdkRoutes =
  (ctx: PartnerSdkServices, movers: AccountMovers, verifier: OidcProviderVerifier): ApiArea =>
  (app) => {
    app.post(
      '/partner-sdk/token/bot',
      { config: { auth: { kind: 'bot' }, rateLimit: 'partner-sdk.token' }, schema: { body: botTokenSchema } },
      async (request) => {
        const { app: application } = botOf(request);
        const body = request.body;
        return provisionalTokenFor(ctx, application, {
          authType: BOT_ISSUED,
          issuer: '',
          externalId: body.external_user_id,
          displayName: body.preferred_global_name,
          updateDisplayName: true,
          expectedUserId: body.provisional_user_id,
        });
      },
    );

    app.post(
      '/partner-sdk/token',
      { config: { rateLimit: 'partner-sdk.token' }, schema: { body: externalTokenSchema } },
      async (request) => {
        const body = request.body;
        // The schema also allows Bot auth: then the bot's application must be the client named in the body.
        if (request.headers.authorization) {
          const principal = authenticate(ctx, request);
          if (principal.kind !== 'bot') throw Errors.onlyBotsCanUse();
          if (principal.app.id !== body.client_id)
            throw fieldError(['client_id'], 'CLIENT_ID_MISMATCH', 'client_id does not match the bot token.');
        }
        const application = clientFromBody(ctx, body.client_id, body.client_secret);
        if (!application.provisionalAccountsEnabled) throw ProvisionalErrors.notEnabled();
        const subject = await resolveExternalToken(
          ctx,
          verifier,
          application,
          body.external_auth_type,
          body.external_auth_token,
          { allowAccountToken: false },
        );
        if (subject.kind !== 'identity') throw ProvisionalErrors.invalidExternalToken();
        return provisionalTokenFor(ctx, application, { ...subject, updateDisplayName: false });
      },
    );

    app.post(
      '/partner-sdk/provisional-accounts/unmerge/bot',
      { config: { auth: { kind: 'bot' }, rateLimit: 'partner-sdk.unmerge' }, schema: { body: unmergeBotSchema } },
      async (request, reply) => {
        const { app: application } = botOf(request);
        const body = request.body;
        const identity = ctx.store.identities.find(application.id, BOT_ISSUED, '', body.external_user_id);
        if (!identity) throw ProvisionalErrors.unknownIdentity();
        unmergeIdentity(ctx, movers(), application, identity);
        return reply.code(204).send();
      },
    );

    app.post(
      '/partner-sdk/provisional-accounts/unmerge',
      { config: { rateLimit: 'partner-sdk.unmerge' }, schema: { body: externalTokenSchema } },
      async (request, reply) => {
        const body = request.body;
        const application = clientFromBody(ctx, body.client_id, body.client_secret);
        const subject = await resolveExternalToken(
          ctx,
          verifier,
          application,
          body.external_auth_type,
          body.external_auth_token,
          { allowAccountToken: false },
        );
        if (subject.kind !== 'identity') throw ProvisionalErrors.invalidExternalToken();
        const identity = ctx.store.identities.find(
          application.id,
          subject.authType,
          subject.issuer,
          subject.externalId,
        );
        if (!identity) throw ProvisionalErrors.unknownIdentity();
        unmergeIdentity(ctx, movers(), application, identity);
        return reply.code(204).send();
      },
    );

    app.post(
      '/partner-sdk/child-token',
      { config: { rateLimit: 'partner-sdk.child-token' }, schema: { body: childTokenSchema } },
      async (request) => {
        const body = request.body;
        const parent = findBearer(ctx, body.parent_access_token);
        if (!parent) throw Errors.invalidAccessToken();
        const child = ctx.store.applications.get(body.child_application_id);
        if (!child) throw Errors.unknownApplication();
        if (child.parentId !== parent.app.id) {
          throw fieldError(
            ['child_application_id'],
            'APPLICATION_NOT_CHILD',
            "Not a child application of the token's application.",
          );
        }
        if (body.parent_client_secret === undefined) {
          // Public clients (Client::ExchangeChildToken) exchange without the secret (OURS).
          if (!parent.app.publicClient)
            throw fieldError(['parent_client_secret'], 'BASE_TYPE_REQUIRED', 'This field is required');
        } else if (!constantTimeEqual(body.parent_client_secret, parent.app.clientSecret)) {
          throw ProvisionalErrors.invalidClientSecret();
        }
        const issued = ctx.store.transaction(() => {
          const previous = ctx.store.grants.get(child.id, parent.user.id);
          ctx.store.grants.upsert({
            applicationId: child.id,
            userId: parent.user.id,
            scopes: PROVISIONAL_SCOPES,
            createdAt: previous?.createdAt ?? ctx.now(),
          });
          return issueTokens(ctx, {
            app: child,
            user: parent.user,
            scopes: PROVISIONAL_SCOPES,
            origin: 'child',
            accessSeconds: 0,
            refresh: false,
            parentPairId: parent.token.pairId,
            expiresAt: parent.token.expiresAt,
          });
        });
        return {
          access_token: issued.accessToken,
          token_type: 'Bearer',
          expires_in: issued.expiresIn,
          scope: PROVISIONAL_SCOPES.join(' '),
        };
      },
    );

    // OURS: Client::UpdateProvisionalAccountDisplayName. The provisional user's own token; full accounts get 50229.
    app.patch(
      '/partner-sdk/provisional-accounts/@me',
      { config: { auth: { kind: 'bearer' }, rateLimit: 'partner-sdk.account' }, schema: { body: displayNameSchema } },
      async (request) => {
        const principal = bearerOf(request);
        const body = request.body;
        if (!principal.user.isProvisional) throw Errors.invalidUserType();
        const updated = { ...principal.user, globalName: body.global_name };
        ctx.store.users.update(updated);
        const json = userJson(ctx, updated, { app: principal.app, selfScopes: principal.token.scopes });
        ctx.bus.publish({ t: 'USER_UPDATE', d: json, to: { userIds: [updated.id] } });
        return json;
      },
    );
  };
