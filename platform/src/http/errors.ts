import { STATUS_CODES } from 'node:http';

/**
 * The platform's JSON error body (published; field errors: platform/PROTOCOL.md §2): `{code, message, errors?}` where
 * `errors` mirrors the request shape and holds `_errors: [{code, message}]` at the leaves.
 */

export interface FieldError {
  code: string;
  message: string;
}

/** Nested error tree: keys mirror the request (array indices as strings); leaves carry `_errors`. */
export interface ErrorTree {
  _errors?: FieldError[];
  [key: string]: ErrorTree | FieldError[] | undefined;
}

export interface ErrorBody {
  code: number;
  message: string;
  errors?: ErrorTree;
}

/** Thrown anywhere in a request handler; the error handler turns it into the JSON error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: ErrorTree,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  body(): ErrorBody {
    return this.errors ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }
}

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
    const key = String(segment).length > MAX_PATH_KEY_LENGTH ? `${String(segment).slice(0, MAX_PATH_KEY_LENGTH)}…` : String(segment);
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
  return new ApiError(400, 50035, 'Invalid Form Body', errors);
}

/** Published error codes used across the platform, with their HTTP status and message. */
export const Errors = {
  unauthorized: () => new ApiError(401, 0, '401: Unauthorized'),
  invalidBotToken: () => new ApiError(401, 50014, 'Invalid authentication token'),
  invalidAccessToken: () => new ApiError(401, 50025, 'Invalid OAuth2 access token'),
  botsCannotUse: () => new ApiError(403, 20001, 'Bots cannot use this endpoint'),
  onlyBotsCanUse: () => new ApiError(403, 20002, 'Only bots can use this endpoint'),
  missingScope: (scope: string) => new ApiError(403, 50026, `Missing required OAuth2 scope: ${scope}`),
  unknownUser: () => new ApiError(404, 10013, 'Unknown User'),
  unknownApplication: () => new ApiError(404, 10002, 'Unknown Application'),
  unknownGuild: () => new ApiError(404, 10004, 'Unknown Guild'),
  missingAccess: () => new ApiError(403, 50001, 'Missing Access'),
  notFound: () => new ApiError(404, 0, '404: Not Found'),
  invalidApiVersion: () => new ApiError(400, 50041, 'Invalid API version'),
  invalidJson: () => new ApiError(400, 50109, 'The request body contains invalid JSON.'),
  tooLarge: () => new ApiError(413, 40005, 'Request entity too large'),
  invalidUserType: () => new ApiError(400, 50229, 'Invalid user type'),
  /** A problem with the request itself (router, parser, headers): `{code: 0, message: "<status>: <reason>"}`. */
  httpStatus: (status: number) => new ApiError(status, 0, `${status}: ${STATUS_CODES[status] ?? 'Error'}`),
} as const;
