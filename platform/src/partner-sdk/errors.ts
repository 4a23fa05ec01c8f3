import { ApiError } from '../http/errors.js';

/** Published provisional-account error codes, all HTTP 400 unless noted; when each is sent: platform/PROTOCOL.md §5. */
export const ProvisionalErrors = {
  notEnabled: () => new ApiError(400, 530000, 'Application is not enabled for provisional accounts'),
  expiredIdToken: () => new ApiError(400, 530001, 'Expired ID token'),
  issuerMismatch: () => new ApiError(400, 530002, 'OIDC issuer mismatch'),
  audienceMismatch: () => new ApiError(400, 530003, 'OIDC audience mismatch'),
  tokenTooOld: () => new ApiError(400, 530004, 'ID token was issued more than one week ago'),
  invalidClientSecret: () => new ApiError(400, 530007, 'Invalid client secret'),
  discoveryNotFound: () => new ApiError(400, 530008, 'OIDC discovery document not found'),
  jwksNotFound: () => new ApiError(400, 530009, 'OIDC JWKS not found'),
  identityIsFullAccount: () => new ApiError(400, 530010, 'This external identity is linked to a non-provisional account; use OAuth2'),
  mergeSourceNotProvisional: () => new ApiError(400, 530014, 'Merge source account is not provisional'),
  mergeDestinationProvisional: () => new ApiError(400, 530016, 'Merge destination account is provisional'),
  mergeSourceBanned: () => new ApiError(400, 530017, 'Merge source account is restricted by a ban'),
  invalidOidcJwt: (reason: string) => new ApiError(400, 530020, `Invalid OIDC JWT: ${reason}`),
  alreadyHasIdentity: () => new ApiError(400, 530023, 'User already has an external identity for this application'),
  missingKid: () => new ApiError(400, 530027, 'OIDC token is missing the kid header'),
  invalidExternalToken: () => new ApiError(403, 50025, 'Invalid OAuth2 access token'),
  unknownIdentity: () => new ApiError(404, 10013, 'Unknown User'),
} as const;
