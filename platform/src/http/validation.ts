import { z } from 'zod';
import { addFieldError, invalidFormBody, type ErrorTree, type FieldError } from './errors.js';
import { isSnowflake } from '../ids/snowflake.js';

/**
 * Maps zod issues to the published field-error codes (`BASE_TYPE_REQUIRED`, `BASE_TYPE_MAX_LENGTH`, …) so the
 * error tree looks like the public platform's. Messages never contain the received value: an error must not send
 * the request back (a 900 KB array once came back whole, and serializing a hostile value can overflow the stack).
 */
function toFieldError(issue: z.core.$ZodIssue, input: unknown): FieldError {
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
      return typeConversionError(issue.expected);
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array') {
        return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${String(issue.minimum)} or more in length.` };
      }
      return {
        code: 'NUMBER_TYPE_MIN',
        message: `int value should be greater than or equal to ${String(issue.minimum)}.`,
      };
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array') {
        return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${String(issue.maximum)} or fewer in length.` };
      }
      return {
        code: 'NUMBER_TYPE_MAX',
        message: `int value should be less than or equal to ${String(issue.maximum)}.`,
      };
    case 'invalid_value':
      // A missing enum or literal field is reported like any other missing field.
      if (value === undefined) return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
      return {
        code: 'BASE_TYPE_CHOICES',
        message: `Value must be one of (${issue.values.map((v) => JSON.stringify(v)).join(', ')}).`,
      };
    case 'invalid_format':
      if (issue.format === 'url') return { code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' };
      return { code: 'STRING_TYPE_REGEX', message: issue.message ?? 'String value did not match validation regex.' };
    case 'custom': {
      const code = (issue.params as { code?: string } | undefined)?.code ?? 'BASE_TYPE_INVALID';
      return { code, message: issue.message };
    }
    case 'unrecognized_keys':
      // zod's message lists the keys it got.
      return { code: 'BASE_TYPE_INVALID', message: 'Unknown keys are not allowed here.' };
    default:
      return { code: 'BASE_TYPE_INVALID', message: issue.message };
  }
}

function typeConversionError(expected: string): FieldError {
  switch (expected) {
    case 'string':
      return { code: 'STRING_TYPE_CONVERT', message: 'Could not interpret the value as string.' };
    case 'number':
    case 'int':
      return { code: 'NUMBER_TYPE_COERCE', message: 'Value is not int.' };
    case 'boolean':
      return { code: 'BOOLEAN_TYPE_CONVERT', message: 'Value is not boolean.' };
    case 'object':
    case 'record':
      return { code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' };
    case 'array':
      return { code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' };
    default:
      return { code: 'BASE_TYPE_INVALID', message: `Invalid value for type ${expected}.` };
  }
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** At most this many field errors per answer (a 10,000-element array of wrong values has 10,000 issues). */
export const MAX_FIELD_ERRORS = 25;

/** The error tree of the first MAX_FIELD_ERRORS issues: bounded whatever the size of the request. */
export function zodErrorTree(error: z.ZodError, input: unknown): ErrorTree {
  const tree: ErrorTree = {};
  for (const issue of error.issues.slice(0, MAX_FIELD_ERRORS)) {
    const path = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment.description) : segment));
    addFieldError(tree, path, toFieldError(issue, input));
  }
  return tree;
}

/** Parses `input` or throws the 50035 error body with field errors. A missing body validates as `{}`. */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const value = input === undefined || input === null ? {} : input;
  const result = schema.safeParse(value);
  if (!result.success) throw invalidFormBody(zodErrorTree(result.error, value));
  return result.data;
}

/** Snowflake id as a string of digits. */
export const snowflakeSchema = z.string().refine((value) => isSnowflake(value), {
  message: 'Value is not snowflake.',
  params: { code: 'NUMBER_TYPE_COERCE' },
});

/**
 * A flat string → string map with key-count and key-length limits. Too many keys → `DICT_TYPE_MAX_KEYS` on the
 * map; a bad key → `BASE_TYPE_MIN_LENGTH` / `BASE_TYPE_MAX_LENGTH` under that key; a long value → the usual
 * `BASE_TYPE_MAX_LENGTH` under its key.
 */
export function stringMapSchema(maxKeys: number, keyMax: number, valueMax: number) {
  return z.record(z.string(), z.string().max(valueMax)).superRefine((map, issues) => {
    const keys = Object.keys(map);
    if (keys.length > maxKeys) {
      issues.addIssue({
        code: 'custom',
        message: `Must have ${maxKeys} or fewer keys.`,
        params: { code: 'DICT_TYPE_MAX_KEYS' },
      });
    }
    for (const key of keys) {
      if (key.length === 0)
        issues.addIssue({
          code: 'custom',
          path: [key],
          message: 'Must be 1 or more in length.',
          params: { code: 'BASE_TYPE_MIN_LENGTH' },
        });
      if (key.length > keyMax)
        issues.addIssue({
          code: 'custom',
          path: [key],
          message: `Must be ${keyMax} or fewer in length.`,
          params: { code: 'BASE_TYPE_MAX_LENGTH' },
        });
    }
  });
}

/** Query booleans accept true|True|1 and false|False|0 (published rule). */
export const queryBoolean = z
  .enum(['true', 'True', '1', 'false', 'False', '0'])
  .transform((v) => v === 'true' || v === 'True' || v === '1');

/** Image data as the published API takes it: a base64 data URI of a PNG, JPEG, GIF, WebP or AVIF image. */
export const imageDataUriSchema = z
  .string()
  .max(350_000)
  .regex(/^data:image\/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/=]+$/, {
    message: 'Must be a data URI of a PNG, JPEG, GIF, WebP or AVIF image.',
  });
