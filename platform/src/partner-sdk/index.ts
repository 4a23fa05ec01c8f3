/**
 * Provisional accounts (PROTOCOL.md §5): the partner-SDK routes. `verifier` proves external ID tokens (it is shared
 * with the OAuth2 area's merges); an unmerge runs the assembled areas' account movers.
 */
import type { AccountMovers, PlatformArea } from '../areas/area.js';
import { registerArea } from '../http/api.js';
import type { OidcProviderVerifier } from './oidc/verifier.js';
import { partnerSdkRoutes, type PartnerSdkServices } from './routes.js';

export function partnerSdkArea(
  ctx: PartnerSdkServices,
  movers: AccountMovers,
  verifier: OidcProviderVerifier,
): PlatformArea {
  return {
    name: 'partner-sdk',
    dependencies: ['accounts'],
    routes: (app) => registerArea(app, partnerSdkRoutes(ctx, movers, verifier)),
  };
}
