import { z } from 'zod';
import { ID_TOKEN_AUTH_TYPES } from '../config/schema.js';
import { zodErrorTree } from '../http/validation.js';
import { SNOWFLAKE_PATTERN } from '../ids/snowflake.js';

/** Field name → the message shown next to it (the first problem of the field). */
export type FieldErrors = Record<string, string>;

/** A rule that needs the database broke (unknown parent, duplicate name …): shown like a field error. */
export class FormProblem extends Error {
  constructor(readonly errors: FieldErrors) {
    super(Object.values(errors).join(' '));
    this.name = 'FormProblem';
  }
}

export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/**
 * Validates a posted form with zod; messages are the platform's field-error messages (the same the JSON API uses),
 * and like those they never repeat what was sent.
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  body: Record<string, string | string[]>,
): FormResult<z.output<S>> {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const tree = zodErrorTree(result.error, body);
  const errors: FieldErrors = {};
  for (const [field, node] of Object.entries(tree)) {
    if (field === '_errors' || node === undefined || Array.isArray(node)) continue;
    const first =
      node._errors?.[0] ??
      Object.values(node)
        .flat()
        .find((leaf) => Array.isArray(leaf))?.[0];
    errors[field] = first && 'message' in first ? first.message : 'Invalid value.';
  }
  if (Object.keys(errors).length === 0) errors.form = 'The form could not be read.';
  return { ok: false, errors };
}

/** A single text field (a repeated field is refused as not a string); surrounding spaces are dropped. */
const text = (min: number, max: number) => z.string().trim().min(min).max(max);

export const loginForm = z.object({
  username: text(1, 64),
  password: z.string().min(1).max(1024),
});

export const createApplicationForm = z.object({
  name: text(2, 64),
  /** '' = no parent. */
  parent_id: z.string().max(32).default(''),
});

export const parentForm = z.object({ parent_id: z.string().max(32).default('') });

export const publicClientForm = z.object({
  /** A checked checkbox sends "on"; an unchecked one sends nothing. */
  public_client: z.literal('on').optional(),
});

/** Redirect URIs: absolute, no fragment (RFC 6749 §3.1.2); custom schemes (`game:/callback`) allowed. */
export const redirectUriForm = z.object({
  redirect_uri: text(1, 2048).refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.hash === '' && !value.includes('#');
      } catch {
        return false;
      }
    },
    { message: 'Must be an absolute URL without a fragment.', params: { code: 'URL_TYPE_INVALID_URL' } },
  ),
});

export const removeRedirectUriForm = z.object({ redirect_uri: z.string().min(1).max(2048) });

export const identityProviderForm = z.object({
  type: z.enum(ID_TOKEN_AUTH_TYPES),
  issuer: text(1, 512),
  client_id: text(1, 512),
});

export const removeIdentityProviderForm = z.object({
  type: z.enum(ID_TOKEN_AUTH_TYPES),
  issuer: z.string().min(1).max(512),
});

/** '' clears the URL (no events are queued then). */
export const webhookUrlForm = z.object({
  webhook_url: text(0, 2048).refine((value) => value === '' || isHttpUrl(value), {
    message: 'Must be an http or https URL.',
    params: { code: 'URL_TYPE_INVALID_URL' },
  }),
});

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A form that is only a button (reset a secret, send a test event): nothing but the anti-forgery field. */
export const emptyForm = z.object({});

/** A SKU from the portal: type, name, optional slug, availability, who subscribes (subscriptions), list price. */
export const skuForm = z.object({
  name: text(1, 100),
  type: z.enum(['2', '3', '5']).transform(Number),
  slug: text(0, 90).refine((value) => value === '' || /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value), {
    message: 'Slugs use a–z, 0–9 and single hyphens.',
    params: { code: 'STRING_TYPE_REGEX' },
  }),
  available: z.literal('on').optional(),
  audience: z.enum(['user', 'guild']).default('user'),
  price_cents: text(1, 12)
    .regex(/^\d+$/, { message: 'A whole number of cents.' })
    .transform(Number)
    .refine((value) => value <= 100_000_000, {
      message: 'At most 100,000,000 cents.',
      params: { code: 'NUMBER_TYPE_MAX' },
    }),
});

/** A test entitlement: a SKU, and a user (id or username) or a guild (id). */
export const testEntitlementForm = z.object({
  sku_id: z.string().regex(SNOWFLAKE_PATTERN, { message: 'Choose a SKU.' }),
  owner_type: z.enum(['user', 'guild']),
  owner: text(1, 32),
});

export const deleteEntitlementForm = z.object({ entitlement_id: z.string().regex(SNOWFLAKE_PATTERN) });

/** The privileged-intent toggles: a checked box sends "on". */
export const privilegedIntentsForm = z.object({
  presence: z.literal('on').optional(),
  guild_members: z.literal('on').optional(),
  message_content: z.literal('on').optional(),
});
