import { publishedError } from '../http/published-errors.js';

/** Published provisional-account error codes, all HTTP 400 unless noted; when each is sent: platform/PROTOCOL.md §5. */
export const ProvisionalErrors = {
  notEnabled: () => publishedError('PROVISIONAL_NOT_ENABLED'),
  expiredIdToken: () => publishedError('EXPIRED_ID_TOKEN'),
  issuerMismatch: () => publishedError('OIDC_ISSUER_MISMATCH'),
  audienceMismatch: () => publishedError('OIDC_AUDIENCE_MISMATCH'),
  tokenTooOld: () => publishedError('ID_TOKEN_TOO_OLD'),
  invalidClientSecret: () => publishedError('INVALID_CLIENT_SECRET'),
  discoveryNotFound: () => publishedError('OIDC_DISCOVERY_NOT_FOUND'),
  jwksNotFound: () => publishedError('OIDC_JWKS_NOT_FOUND'),
  identityIsFullAccount: () => publishedError('IDENTITY_IS_FULL_ACCOUNT'),
  mergeSourceNotProvisional: () => publishedError('MERGE_SOURCE_NOT_PROVISIONAL'),
  mergeDestinationProvisional: () => publishedError('MERGE_DESTINATION_PROVISIONAL'),
  mergeSourceBanned: () => publishedError('MERGE_SOURCE_BANNED'),
  invalidOidcJwt: (reason: string) => publishedError('INVALID_OIDC_JWT', { reason }),
  alreadyHasIdentity: () => publishedError('ALREADY_HAS_IDENTITY'),
  missingKid: () => publishedError('OIDC_MISSING_KID'),
  invalidExternalToken: () => publishedError('INVALID_EXTERNAL_TOKEN'),
  unknownIdentity: () => publishedError('UNKNOWN_USER'),
} as const;
