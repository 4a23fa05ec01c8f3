/**
 * AUTHORIZE and AUTHENTICATE (PROTOCOL.md §12.4), through the platform's OAuth2: the same grant checks as
 * `/oauth2/authorize` before the desktop user is asked, a consent step answered by the desktop user, then a code
 * redeemable at the token endpoint; AUTHENTICATE is the token lookup of the HTTP API.
 */
import { z } from 'zod';
import type { AuthorizeGrant } from '../link/platform-link.js';
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

export const authorize: CommandHandler = async (env, connection, { args }) => {
  const parsed = parseArgs(authorizeArgs, args);
  const app = connection.app;
  if (parsed.client_id !== app.id) throw new RpcFailure(RpcError.INVALID_CLIENT_ID, 'Invalid Client ID');
  const grant: AuthorizeGrant = {
    scopes: parsed.scopes,
    ...(parsed.redirect_uri !== undefined && { redirectUri: parsed.redirect_uri }),
    ...(parsed.code_challenge !== undefined && { codeChallenge: parsed.code_challenge }),
    ...(parsed.code_challenge_method !== undefined && { codeChallengeMethod: parsed.code_challenge_method }),
    ...(parsed.nonce !== undefined && { nonce: parsed.nonce }),
  };
  // Refusals that need nobody's answer come before the prompt (the desktop user is never asked in vain).
  await env.link.checkAuthorize(app, grant);
  const approved = await env.consent.ask(
    { applicationId: app.id, applicationName: app.name, scopes: parsed.scopes },
    connection.gone,
  );
  if (!approved)
    throw new RpcFailure(RpcError.OAUTH2_ERROR, 'OAuth2 Error: access_denied: The user denied the request.');
  return { data: { code: await env.link.authorize(app, grant) } };
};

const authenticateArgs = z.object({ access_token: z.string().min(1).max(512) });

export const authenticate: CommandHandler = async (env, connection, { args }) => {
  const { access_token } = parseArgs(authenticateArgs, args);
  // A token of another application is as good as none here (the link refuses it with 4009).
  const token = await env.link.authenticate(connection.app, access_token);
  if (token.user.id !== env.desktopUserId())
    throw new RpcFailure(RpcError.INVALID_USER, 'The token belongs to another user');
  connection.auth = { scopes: token.scopes, expiresAt: token.expiresAt, accessToken: access_token };
  return {
    data: {
      user: token.user,
      scopes: token.scopes,
      expires: new Date(token.expiresAt).toISOString(),
      application: { id: connection.app.id, name: connection.app.name, description: '', icon: null, rpc_origins: [] },
    },
  };
};
