import { z } from 'zod';
import { OAuthError, type ErrorTree } from '../../http/errors.js';
import { zodErrorTree } from '../../http/validation.js';
import { externalAuthTokenSchema, externalAuthTypeSchema } from '../../partner-sdk/external-token.js';
import type { ExternalAuthType } from '../../store/types.js';

function firstMessage(tree: ErrorTree, path: string[] = []): string {
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_errors' && Array.isArray(value) && value[0])
      return `${path.join('.') || 'request'}: ${value[0].message}`;
    if (value && !Array.isArray(value)) {
      const found = firstMessage(value, [...path, key]);
      if (found) return found;
    }
  }
  return '';
}

/**
 * Validates an OAuth2 form. Failures are RFC 6749 `invalid_request` errors whose description names the first
 * bad field, plus the platform's field-error tree under `errors`.
 */
export function parseOAuthForm<S extends z.ZodType>(schema: S, form: Record<string, string | string[]>): z.output<S> {
  const result = schema.safeParse(form);
  if (result.success) return result.data;
  const errors = zodErrorTree(result.error, form);
  throw new OAuthError(400, 'invalid_request', firstMessage(errors) || 'Invalid request.', errors);
}

export const mergeFieldsSchema = z
  .object({
    external_auth_type: externalAuthTypeSchema.optional(),
    external_auth_token: externalAuthTokenSchema.optional(),
  })
  .refine((value) => (value.external_auth_type === undefined) === (value.external_auth_token === undefined), {
    message: 'external_auth_type and external_auth_token go together.',
    path: ['external_auth_token'],
    params: { code: 'BASE_TYPE_REQUIRED' },
  });

export interface MergeRequest {
  authType: ExternalAuthType;
  token: string;
}

/** The merge parameters of a token request (platform/PROTOCOL.md §5 "Merge"), if present. */
export function parseMergeFields(form: Record<string, string | string[]>): MergeRequest | undefined {
  const fields = parseOAuthForm(mergeFieldsSchema, form);
  if (fields.external_auth_type === undefined || fields.external_auth_token === undefined) return undefined;
  return { authType: fields.external_auth_type, token: fields.external_auth_token };
}

export const invalidGrant = (parameter: string) =>
  new OAuthError(400, 'invalid_grant', `Invalid "${parameter}" in request.`);
