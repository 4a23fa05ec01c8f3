import { z } from 'zod';
import type { PlatformKernel } from '../kernel.js';
import { findBearer } from '../http/auth.js';
import { fieldError } from '../http/errors.js';
import type { ApplicationRecord, ExternalAuthType, UserRecord } from '../store/types.js';
import { ProvisionalErrors } from './errors.js';
import type { OidcProviderVerifier } from './oidc/verifier.js';

export const EXTERNAL_AUTH_TYPES = [
  'OIDC',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'STEAM_SESSION_TICKET',
  'UNITY_SERVICES_ID_TOKEN',
  'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
] as const satisfies readonly ExternalAuthType[];

export const externalAuthTypeSchema = z.enum(EXTERNAL_AUTH_TYPES);
export const externalAuthTokenSchema = z.string().min(1).max(10_240);

/** The auth type under which bot-issued identities are stored (the merge parameter names it so). */
export const BOT_ISSUED: ExternalAuthType = 'DISCORD_BOT_ISSUED_ACCESS_TOKEN';

export type ExternalSubject =
  /** An identity proven by an ID token (it may or may not have an account yet). */
  | { kind: 'identity'; authType: ExternalAuthType; issuer: string; externalId: string; displayName?: string }
  /** A provisional account proven by its own access token (bot-issued accounts, merge only). */
  | { kind: 'account'; user: UserRecord };

/**
 * Proves an external credential for an application. ID-token types are verified (by `verifier`) against the
 * application's identity provider of that type; a bot-issued access token must be a live token of this application.
 * Steam tickets and EOS access tokens need vendor APIs this platform does not call: 50035 on external_auth_type.
 */
export async function resolveExternalToken(
  ctx: PlatformKernel,
  verifier: OidcProviderVerifier,
  app: ApplicationRecord,
  authType: ExternalAuthType,
  token: string,
  options: { allowAccountToken: boolean },
): Promise<ExternalSubject> {
  if (authType === BOT_ISSUED) {
    if (!options.allowAccountToken) {
      throw fieldError(
        ['external_auth_type'],
        'EXTERNAL_AUTH_TYPE_INVALID',
        'DISCORD_BOT_ISSUED_ACCESS_TOKEN is only accepted for merges.',
      );
    }
    const bearer = findBearer(ctx, token);
    if (!bearer || bearer.app.id !== app.id) throw ProvisionalErrors.invalidExternalToken();
    return { kind: 'account', user: bearer.user };
  }
  const provider = app.identityProviders.find((p) => p.type === authType);
  if (!provider) {
    throw fieldError(
      ['external_auth_type'],
      'IDENTITY_PROVIDER_NOT_CONFIGURED',
      `No ${authType} identity provider is configured for this application.`,
    );
  }
  const verified = await verifier.verify(provider, token);
  return {
    kind: 'identity',
    authType,
    issuer: verified.issuer,
    externalId: verified.subject,
    ...(verified.preferredUsername ? { displayName: verified.preferredUsername } : {}),
  };
}
