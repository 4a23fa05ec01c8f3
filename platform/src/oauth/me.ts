import type { FastifyInstance } from 'fastify';
import type { PlatformContext } from '../context.js';
import { requireBearer } from '../http/auth.js';
import type { ApplicationRecord } from '../store/types.js';
import { userJson } from '../users/serialize.js';
import { hasScope } from './scopes.js';

/** The partial application object shown to token holders. */
export function publicApplicationJson(app: ApplicationRecord): Record<string, unknown> {
  return {
    id: app.id,
    name: app.name,
    icon: null,
    description: '',
    bot_public: false,
    bot_require_code_grant: false,
    verify_key: app.publicKeyHex,
    flags: 0,
    flags_new: '0',
  };
}

/** GET /api/v10/oauth2/@me (wire-protocol §7): `{application, scopes, expires, user?}`; user needs identify. */
export function registerOAuthMeRoute(app: FastifyInstance, ctx: PlatformContext): void {
  for (const path of ['/api/oauth2/@me', '/api/v10/oauth2/@me']) {
    app.get(path, { config: { rateLimit: 'oauth2.me' } }, async (request) => {
      const principal = requireBearer(ctx, request);
      const body: Record<string, unknown> = {
        application: publicApplicationJson(principal.app),
        scopes: principal.token.scopes,
        expires: new Date(principal.token.expiresAt).toISOString(),
      };
      if (hasScope(principal.token.scopes, 'identify')) {
        body.user = userJson(ctx, principal.user, { app: principal.app, selfScopes: principal.token.scopes });
      }
      return body;
    });
  }
}
