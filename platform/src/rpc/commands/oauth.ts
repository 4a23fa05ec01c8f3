/**
 * AUTHORIZE and AUTHENTICATE (PROTOCOL.md §12.4), through the platform's own OAuth2 code: the same grant checks as
 * `/oauth2/authorize`, a consent step answered by the desktop user, a code redeemable at the token endpoint, and
 * the token lookup of the HTTP API.
 */
import { z } from 'zod';
import { login } from '../../accounts/login.js';
import { findBearer } from '../../http/auth.js';
import { approveCodeGrant } from '../../oauth/authorize/approve.js';
import { checkGrantParams } from '../../oauth/authorize/request.js';
import { matchRedirectUri } from '../../oauth/redirect-uris.js';
import { userJson } from '../../users/serialize.js';
import { RpcError } from '../codes.js';
import { RpcFailure } from '../connection.js';
import { parseArgs, type CommandHandler } from './types.js';

const authorizeArgs = z.object({
  client_id: z.string(),
  scopes: z.array(z.string().min(1).max(64)).min(1).max(64),
  redirect_uri: z.string().min(1).max(2048).optional(),
  code_challenge: z.string().min(1).max(256).optional(),
  code_challenge_method: z.string().min(1).max(16).optional(),
  nonce: z.string().max(2048).optional(),
  // Published clients send these; there is one desktop user and no RPC token endpoint, so they change nothing.
  prompt: z.string().optional(),
  rpc_token: z.string().optional(),
  username: z.string().optional(),
});

const oauthError = (error: string, description: string) => new RpcFailure(RpcError.OAUTH2_ERROR, `OAuth2 Error: ${error}: ${description}`);

export const authorize: CommandHandler = async (env, connection, { args }) => {
  const parsed = parseArgs(authorizeArgs, args);
  const app = connection.app;
  if (parsed.client_id !== app.id) throw new RpcFailure(RpcError.INVALID_CLIENT_ID, 'Invalid Client ID');
  const checked = checkGrantParams(app, {
    response_type: 'code',
    scope: parsed.scopes.join(' '),
    code_challenge: parsed.code_challenge,
    code_challenge_method: parsed.code_challenge_method,
  });
  if ('error' in checked) throw oauthError(checked.error, checked.description);
  if (parsed.redirect_uri !== undefined && !matchRedirectUri(app.redirectUris, parsed.redirect_uri)) {
    throw oauthError('invalid_request', 'Invalid OAuth2 redirect_uri');
  }
  const approved = await env.consent.ask({ applicationId: app.id, applicationName: app.name, scopes: checked.scopes }, connection.gone);
  if (!approved) throw oauthError('access_denied', 'The user denied the request.');
  // Checked after consent: the account may have been banned while the prompt was open.
  const signedIn = login(env.ctx, env.desktopUser().id, undefined, true);
  if (!signedIn.ok) throw oauthError('access_denied', 'The account cannot sign in.');
  const code = approveCodeGrant(env.ctx, {
    app,
    user: signedIn.user,
    scopes: checked.scopes,
    redirectUri: parsed.redirect_uri ?? null,
    codeChallenge: parsed.code_challenge ?? null,
    nonce: parsed.nonce ?? null,
  });
  return { data: { code } };
};

const authenticateArgs = z.object({ access_token: z.string().min(1).max(512) });

export const authenticate: CommandHandler = (env, connection, { args }) => {
  const { access_token } = parseArgs(authenticateArgs, args);
  const principal = findBearer(env.ctx, access_token);
  // A token of another application, or of someone other than the desktop user, is as good as none here.
  if (!principal || principal.app.id !== connection.app.id) throw new RpcFailure(RpcError.INVALID_TOKEN, 'Invalid access token');
  if (principal.user.id !== env.desktopUser().id) throw new RpcFailure(RpcError.INVALID_USER, 'The token belongs to another user');
  connection.auth = { scopes: principal.token.scopes, expiresAt: principal.token.expiresAt };
  return {
    data: {
      user: userJson(env.ctx, principal.user),
      scopes: principal.token.scopes,
      expires: new Date(principal.token.expiresAt).toISOString(),
      application: { id: principal.app.id, name: principal.app.name, description: '', icon: null, rpc_origins: [] },
    },
  };
};
