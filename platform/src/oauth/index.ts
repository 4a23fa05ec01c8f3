/**
 * OAuth2 and OpenID Connect (PROTOCOL.md §3): authorization, token, revocation and device-flow endpoints, the
 * token's user (`/oauth2/@me`) and the OIDC discovery documents. A token grant with merge parameters merges a
 * provisional account and a revocation by an SDK app unmerges (both run the assembled areas' account movers).
 */
import type { PlatformArea } from '../areas/area.js';
import type { OAuthServices } from './services.js';
import { registerAuthorizeRoutes } from './authorize/routes.js';
import { registerDeviceAuthorizeRoute } from './device/authorize.js';
import { registerDeviceVerificationRoutes } from './device/verification.js';
import { registerOAuthMeRoute } from './me.js';
import { registerOidcRoutes } from './oidc/routes.js';
import { registerRevokeRoutes } from './revoke.js';
import { registerTokenRoutes, type MergeServices } from './token/routes.js';

export function oauthArea(ctx: OAuthServices, merging: MergeServices): PlatformArea {
  return {
    name: 'oauth',
    dependencies: ['accounts'],
    routes(app) {
      registerAuthorizeRoutes(app, ctx);
      registerTokenRoutes(app, ctx, merging);
      registerRevokeRoutes(app, ctx, merging.movers);
      registerDeviceAuthorizeRoute(app, ctx);
      registerDeviceVerificationRoutes(app, ctx);
      registerOAuthMeRoute(app, ctx);
      registerOidcRoutes(app, ctx);
    },
  };
}
