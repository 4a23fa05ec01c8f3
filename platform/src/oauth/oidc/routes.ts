import type { OAuth2GetOpenIDConnectUserInfoResponse } from 'discord-api-spec';
import type { FastifyInstance } from 'fastify';
import type { PlatformKernel } from '../../kernel.js';
import type { IdTokenSigning } from './id-token.js';
import { requireBearer } from '../../http/auth.js';
import { hasScope, KNOWN_SCOPES } from '../scopes.js';
import { API_PREFIX, withUnversionedAlias } from '../../http/api.js';

/**
 * OIDC discovery and key set, so standard OIDC client libraries can log in, plus userinfo.
 * The issuer is the platform's base URL.
 */
export function registerOidcRoutes(app: FastifyInstance, ctx: PlatformKernel & IdTokenSigning): void {
  app.get('/.well-known/openid-configuration', async () => {
    const base = ctx.urls().http;
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${base}/api/oauth2/token`,
      revocation_endpoint: `${base}/api/oauth2/token/revoke`,
      device_authorization_endpoint: `${base}${API_PREFIX}/oauth2/device/authorize`,
      userinfo_endpoint: `${base}/api/oauth2/userinfo`,
      jwks_uri: `${base}/api/oauth2/keys`,
      response_types_supported: ['code', 'token'],
      response_modes_supported: ['query', 'fragment'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
        'implicit',
      ],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: [...KNOWN_SCOPES],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      claims_supported: [
        'iss',
        'sub',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'at_hash',
        'preferred_username',
        'nickname',
        'email',
        'email_verified',
      ],
    };
  });

  for (const path of withUnversionedAlias('/oauth2/keys')) {
    app.get(path, async (_request, reply) =>
      reply.header('Cache-Control', 'public, max-age=300').send(ctx.signingKeys.jwks()),
    );
  }

  for (const path of withUnversionedAlias('/oauth2/userinfo')) {
    app.get(path, { config: { rateLimit: 'oauth2.me' } }, async (request) => {
      const { user, token } = requireBearer(ctx, request, 'openid');
      const claims: OAuth2GetOpenIDConnectUserInfoResponse = { sub: user.id, preferred_username: user.username };
      if (user.globalName) claims.nickname = user.globalName;
      if (hasScope(token.scopes, 'email')) {
        claims.email = user.email;
        claims.email_verified = user.verified;
      }
      return claims;
    });
  }
}
