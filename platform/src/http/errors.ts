import { STATUS_CODES } from 'node:http';

import { ApiError, type ErrorTree, type FieldError } from './api-error.js';
import { PUBLISHED_ERRORS, publishedError } from './published-errors.js';

export { ApiError, type ErrorBody, type ErrorTree, type FieldError } from './api-error.js';

/** RFC 6749 error of the OAuth2 endpoints: `{error, error_description}` (plus `errors` for field problems). */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly errors?: ErrorTree,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { error: this.error, error_description: this.description };
    if (this.errors) body.errors = this.errors;
    return body;
  }
}

/** Object keys in error paths come from the request: longer ones are shortened to this many characters plus `…`. */
export const MAX_PATH_KEY_LENGTH = 128;

/** Adds one field error at `path` to a tree. */
export function addFieldError(tree: ErrorTree, path: ReadonlyArray<string | number>, error: FieldError): ErrorTree {
  let node: ErrorTree = tree;
  for (const segment of path) {
    const key =
      String(segment).length > MAX_PATH_KEY_LENGTH
        ? `${String(segment).slice(0, MAX_PATH_KEY_LENGTH)}…`
        : String(segment);
    const child = node[key];
    if (child === undefined || Array.isArray(child)) node[key] = {};
    node = node[key] as ErrorTree;
  }
  (node._errors ??= []).push(error);
  return tree;
}

export function fieldError(path: ReadonlyArray<string | number>, code: string, message: string): ApiError {
  return invalidFormBody(addFieldError({}, path, { code, message }));
}

export function invalidFormBody(errors: ErrorTree): ApiError {
  const { status, code, message } = PUBLISHED_ERRORS.INVALID_FORM_BODY;
  return new ApiError(status, code, message, errors);
}

/** Published error codes used across the platform, with their HTTP status and message. */
export const Errors = {
  unauthorized: () => new ApiError(401, 0, '401: Unauthorized'),
  invalidBotToken: () => publishedError('INVALID_BOT_TOKEN'),
  invalidAccessToken: () => publishedError('INVALID_ACCESS_TOKEN'),
  botsCannotUse: () => publishedError('BOTS_CANNOT_USE'),
  onlyBotsCanUse: () => publishedError('ONLY_BOTS_CAN_USE'),
  missingScope: (scope: string) => publishedError('MISSING_SCOPE', { scope }),
  unknownUser: () => publishedError('UNKNOWN_USER'),
  unknownApplication: () => publishedError('UNKNOWN_APPLICATION'),
  unknownGuild: () => publishedError('UNKNOWN_GUILD'),
  missingAccess: () => publishedError('MISSING_ACCESS'),
  notFound: () => new ApiError(404, 0, '404: Not Found'),
  invalidApiVersion: () => publishedError('INVALID_API_VERSION'),
  invalidJson: () => publishedError('INVALID_JSON'),
  tooLarge: () => publishedError('TOO_LARGE'),
  invalidUserType: () => publishedError('INVALID_USER_TYPE'),
  /** A problem with the request itself (router, parser, headers): `{code: 0, message: "<status>: <reason>"}`. */
  httpStatus: (status: number) => new ApiError(status, 0, `${status}: ${STATUS_CODES[status] ?? 'Error'}`),
} as const;
