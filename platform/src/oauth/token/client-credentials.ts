import { z } from 'zod';
import type { OAuthServices } from '../services.js';
import { OAuthError } from '../../http/errors.js';
import type { AuthenticatedClient } from '../client-auth.js';
import { issueTokens, type IssuedTokens } from '../issue.js';
import { parseScopeString, scopeProblem } from '../scopes.js';
import { parseOAuthForm } from './form.js';

export const clientCredentialsSchema = z.object({
  scope: z.string().min(1).max(2048),
});

/**
 * client_credentials: a token acting as the application's owner (or, without an owner, its bot user); no refresh
 * token (platform/PROTOCOL.md §3 "Token endpoint"). Confidential clients only.
 */
export function grantClientCredentials(
  ctx: OAuthServices,
  client: AuthenticatedClient,
  form: Record<string, string | string[]>,
): IssuedTokens {
  const fields = parseOAuthForm(clientCredentialsSchema, form);
  const scopes = parseScopeString(fields.scope);
  const problem = scopeProblem(client.app, scopes, 'client_credentials');
  if (problem) throw new OAuthError(400, 'invalid_scope', problem.reason);
  const user = ctx.store.users.get(client.app.ownerUserId ?? client.app.botUserId);
  if (!user) throw new OAuthError(400, 'unauthorized_client', 'The application has no owner.');
  return ctx.store.transaction(() =>
    issueTokens(ctx, {
      app: client.app,
      user,
      scopes,
      origin: 'client_credentials',
      accessSeconds: ctx.options.tokenLifetimes.accessSeconds,
      refresh: false,
    }),
  );
}
