// ClientResult -> SvcppResultError: how every asynchronous operation rejects its promise.
import { ErrorType, HttpStatusCode } from '../contract/enums.js';
import type { NativeApi, NativeHandle } from '../contract/native-api.js';

/** Stable `code` per ErrorType (exhaustive: a new ErrorType fails to compile until it gets a code). */
export const resultErrorCodes = {
  [ErrorType.None]: 'ERR_SVCPP_NONE',
  [ErrorType.NetworkError]: 'ERR_SVCPP_NETWORK',
  [ErrorType.HTTPError]: 'ERR_SVCPP_HTTP',
  [ErrorType.ClientNotReady]: 'ERR_SVCPP_CLIENT_NOT_READY',
  [ErrorType.Disabled]: 'ERR_SVCPP_DISABLED',
  [ErrorType.ClientDestroyed]: 'ERR_SVCPP_CLIENT_DESTROYED',
  [ErrorType.ValidationError]: 'ERR_SVCPP_VALIDATION',
  [ErrorType.Aborted]: 'ERR_SVCPP_ABORTED',
  [ErrorType.AuthorizationFailed]: 'ERR_SVCPP_AUTHORIZATION_FAILED',
  [ErrorType.RPCError]: 'ERR_SVCPP_RPC',
} as const satisfies Record<ErrorType, string>;

export type SvcppResultErrorCode = (typeof resultErrorCodes)[ErrorType] | 'ERR_SVCPP_UNKNOWN_RESULT';

/** A failed asynchronous operation (a ClientResult whose type is not None). */
export class SvcppResultError extends Error {
  override name = 'SvcppResultError';
  readonly code: SvcppResultErrorCode;
  readonly type: ErrorType;
  /** HTTP status (HTTPError only, else HttpStatusCode.None). */
  readonly status: HttpStatusCode;
  /** JSON error code of the response body or the RPC error code; 0 when none. */
  readonly errorCode: number;
  readonly retryable: boolean;
  /** Seconds to wait before retrying (from a 429), 0 when not given. */
  readonly retryAfter: number;
  /** Raw response body (HTTPError). */
  readonly responseBody: string;

  constructor(fields: {
    type: ErrorType;
    message: string;
    status: HttpStatusCode;
    errorCode: number;
    retryable: boolean;
    retryAfter: number;
    responseBody: string;
  }) {
    super(fields.message);
    this.type = fields.type;
    this.code = (resultErrorCodes as Record<number, SvcppResultErrorCode>)[fields.type] ?? 'ERR_SVCPP_UNKNOWN_RESULT';
    this.status = fields.status;
    this.errorCode = fields.errorCode;
    this.retryable = fields.retryable;
    this.retryAfter = fields.retryAfter;
    this.responseBody = fields.responseBody;
  }
}

/** Reads a native ClientResult: undefined on success, else the SvcppResultError to reject with. */
export function resultError(api: NativeApi, result: NativeHandle<'ClientResult'>): SvcppResultError | undefined {
  const type = api.ClientResult_Type(result);
  if (type === ErrorType.None) return undefined;
  return new SvcppResultError({
    type,
    message: api.ClientResult_Error(result),
    status: api.ClientResult_Status(result),
    errorCode: api.ClientResult_ErrorCode(result),
    retryable: api.ClientResult_Retryable(result),
    retryAfter: api.ClientResult_RetryAfter(result),
    responseBody: api.ClientResult_ResponseBody(result),
  });
}
