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
    return this.errors
      ? { code: this.code, message: this.message, errors: this.errors }
      : { code: this.code, message: this.message };
  }
}
