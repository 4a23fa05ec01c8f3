import { z } from 'zod';
import type { PlatformKernel } from '../../kernel.js';
import { addFieldError, type ErrorTree } from '../../http/errors.js';
import { zodErrorTree } from '../../http/validation.js';
import type { ApplicationRecord } from '../../store/types.js';
import { matchRedirectUri } from '../redirect-uris.js';
import { parseScopeString, scopeProblem } from '../scopes.js';
import { isSnowflake } from '../../ids/snowflake.js';

/**
 * The authorize parameters (platform/PROTOCOL.md §3 "Authorize") plus the svcpp development shortcut `svcpp_dev_user`
 * (OURS).
 */
export const authorizeParamsSchema = z.object({
  client_id: z.string().min(1).max(20),
  redirect_uri: z.string().min(1).max(2048).optional(),
  response_type: z.string().min(1).max(32),
  scope: z.string().min(1).max(2048),
  state: z.string().max(2048).optional(),
  prompt: z.enum(['consent', 'none']).optional(),
  integration_type: z.enum(['0', '1']).optional(),
  code_challenge: z.string().min(1).max(256).optional(),
  code_challenge_method: z.string().min(1).max(16).optional(),
  nonce: z.string().max(2048).optional(),
  svcpp_dev_user: z.string().min(1).max(32).optional(),
});

export type AuthorizeParams = z.output<typeof authorizeParamsSchema>;

export interface AuthorizeRequest {
  params: AuthorizeParams;
  app: ApplicationRecord;
  redirectUri: string;
  responseType: 'code' | 'token';
  scopes: string[];
}

/** A problem that is reported to the client by redirect (RFC 6749 §4.1.2.1). */
export interface RedirectableError {
  error: string;
  description: string;
}

export type AuthorizeValidation =
  | { ok: true; request: AuthorizeRequest }
  /** Client or redirect URI unusable: never redirect, show the error (HTML or JSON). */
  | { ok: false; redirect: false; errors: ErrorTree; message: string }
  | { ok: false; redirect: true; request: Omit<AuthorizeRequest, 'responseType' | 'scopes'>; error: RedirectableError };

const PKCE_VERIFIER_CHARS = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Validates an authorization request in RFC order: client and redirect URI first, everything else after. */
export function validateAuthorizeRequest(ctx: PlatformKernel, input: unknown): AuthorizeValidation {
  const parsed = authorizeParamsSchema.safeParse(input ?? {});
  const raw = (input ?? {}) as Record<string, unknown>;
  const errors: ErrorTree = parsed.success ? {} : zodErrorTree(parsed.error, raw);
  // Client and redirect problems must be shown, never redirected; collect every field error for that page.
  const clientId = typeof raw.client_id === 'string' ? raw.client_id : undefined;
  const app = clientId && isSnowflake(clientId) ? ctx.store.applications.get(clientId) : undefined;
  if (clientId && !app && !errors.client_id) {
    addFieldError(errors, ['client_id'], { code: 'UNKNOWN_APPLICATION', message: 'Unknown application.' });
  }
  const requestedRedirect = typeof raw.redirect_uri === 'string' ? raw.redirect_uri : undefined;
  const redirectUri = app ? matchRedirectUri(app.redirectUris, requestedRedirect) : undefined;
  if (app && !redirectUri && !errors.redirect_uri) {
    addFieldError(errors, ['redirect_uri'], {
      code: 'REDIRECT_URI_NOT_REGISTERED',
      message: 'Invalid OAuth2 redirect_uri',
    });
  }
  if (!app || !redirectUri)
    return { ok: false, redirect: false, errors, message: 'Invalid OAuth2 authorization request' };
  if (!parsed.success) {
    const first = Object.keys(errors)[0] ?? 'request';
    return {
      ok: false,
      redirect: false,
      errors,
      message: `Invalid OAuth2 authorization request: ${first}`,
    };
  }

  const params = parsed.data;
  const base = { params, app, redirectUri };
  const checked = checkGrantParams(app, params);
  if ('error' in checked) return { ok: false, redirect: true, request: base, error: checked };
  return { ok: true, request: { ...base, responseType: checked.responseType, scopes: checked.scopes } };
}

/** What the grant asks for, independent of how it reached us (browser redirect or the local client's AUTHORIZE). */
export type GrantParams = Pick<
  AuthorizeParams,
  'response_type' | 'scope' | 'integration_type' | 'code_challenge' | 'code_challenge_method'
>;

/** The checks after client and redirect URI, in RFC order: response type, install type, scopes, PKCE. */
export function checkGrantParams(
  app: ApplicationRecord,
  params: GrantParams,
): RedirectableError | { responseType: 'code' | 'token'; scopes: string[] } {
  const fail = (error: string, description: string): RedirectableError => ({ error, description });
  if (params.response_type !== 'code' && params.response_type !== 'token') {
    return fail('unsupported_response_type', 'response_type must be code or token.');
  }
  if (params.integration_type === '0')
    return fail('invalid_request', 'Guild installs are not supported by this platform.');
  const scopes = parseScopeString(params.scope);
  const problem = scopeProblem(app, scopes, 'user');
  if (problem) return fail('invalid_scope', problem.reason);
  if (params.code_challenge_method !== undefined && params.code_challenge_method !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256.');
  }
  if (params.code_challenge !== undefined && !PKCE_VERIFIER_CHARS.test(params.code_challenge)) {
    return fail('invalid_request', 'code_challenge must be 43 to 128 URL-safe characters.');
  }
  if (params.code_challenge !== undefined && params.code_challenge_method === undefined) {
    return fail('invalid_request', 'code_challenge_method is required with code_challenge (S256).');
  }
  return { responseType: params.response_type, scopes };
}
