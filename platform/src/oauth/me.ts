import type { ApplicationResponse, OAuth2GetAuthorizationResponse, OAuth2Scopes } from 'discord-api-spec';
import type { FastifyInstance } from 'fastify';
import type { PlatformKernel } from '../kernel.js';
import { requireBearer } from '../http/auth.js';
import type { ApplicationRecord } from '../store/types.js';
import { userJson, type SelfUserJson } from '../users/serialize.js';
import { hasScope } from './scopes.js';
import { withUnversionedAlias } from '../http/api.js';

/** The application object shown to token holders; `type` is null for every application (no special kinds here). */
export function publicApplicationJson(app: ApplicationRecord): ApplicationResponse {
  return {
    id: app.id,
    name: app.name,
    icon: null,
    description: '',
    type: null,
    bot_public: false,
    bot_require_code_grant: false,
    verify_key: app.publicKeyHex,
    flags: 0,
    flags_new: '0',
  };
}

/** GET /api/v10/oauth2/@me (platform/PROTOCOL.md §3): `{application, scopes, expires, user?}`; user needs identify. */
export function registerOAuthMeRoute(app: FastifyInstance, ctx: PlatformKernel): void {
  for (const path of withUnversionedAlias('/oauth2/@me')) {
    app.get(path, { config: { rateLimit: 'oauth2.me' } }, async (request) => {
      const principal = requireBearer(ctx, request);
      const body: OAuth2GetAuthorizationResponse & { user?: SelfUserJson } = {
        application: publicApplicationJson(principal.app),
        // Known scope names (oauth/scopes.ts); the SDK ones are not in the published list (PROTOCOL.md §11).
        scopes: principal.token.scopes as OAuth2Scopes[],
        expires: new Date(principal.token.expiresAt).toISOString(),
      };
      if (hasScope(principal.token.scopes, 'identify')) {
        body.user = userJson(ctx, principal.user, { app: principal.app, selfScopes: principal.token.scopes });
      }
      return body;
    });
  }
}
