import type { FastifyRequest } from 'fastify';
import type { PlatformKernel } from '../kernel.js';
import { constantTimeEqual } from '../crypto/tokens.js';
import { OAuthError } from '../http/errors.js';
import type { ApplicationRecord } from '../store/types.js';
import { requireById } from '../ids/snowflake.js';

export interface AuthenticatedClient {
  app: ApplicationRecord;
  /** True when the client proved nothing beyond its id (a public client, PKCE-protected flows only). */
  isPublic: boolean;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError(401, 'invalid_client', 'Malformed Basic authorization header.');
  // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError(401, 'invalid_client', 'Malformed Basic authorization header.');
  }
}

/**
 * Client authentication at the OAuth2 endpoints: HTTP Basic or form `client_id` + `client_secret`. Public
 * clients (application flag) may send only `client_id` where `allowPublic` says so.
 */
export function authenticateClient(
  ctx: PlatformKernel,
  request: FastifyRequest,
  form: Record<string, string | string[]>,
  allowPublic: boolean,
): AuthenticatedClient {
  const basic = basicCredentials(request);
  const formId = single(form.client_id);
  const formSecret = single(form.client_secret);
  if (basic && formSecret !== undefined) {
    throw new OAuthError(400, 'invalid_request', 'Use one client authentication method, not both.');
  }
  const clientId = basic?.id ?? formId;
  const secret = basic?.secret ?? formSecret;
  if (!clientId) {
    throw new OAuthError(401, 'invalid_client', 'Missing client authentication.', {
      client_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    });
  }
  if (basic && formId !== undefined && formId !== basic.id) {
    throw new OAuthError(400, 'invalid_request', 'client_id does not match the authenticated client.');
  }
  const app = requireById(
    clientId,
    (clientId) => ctx.store.applications.get(clientId),
    () => new OAuthError(401, 'invalid_client', 'Unknown client.'),
  );
  if (secret === undefined || secret === '') {
    if (allowPublic && app.publicClient) return { app, isPublic: true };
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed.');
  }
  if (!constantTimeEqual(secret, app.clientSecret))
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed.');
  return { app, isPublic: false };
}
