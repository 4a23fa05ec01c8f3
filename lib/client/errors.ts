// The errors the Client makes itself: a connect() that ended in Disconnected, and an aborted authorize().
import { ClientError, ErrorType, HttpStatusCode } from '../../contract/enums.js';
import type { ConnectionFailureSnapshot } from '../connection.js';
import { SvcppConnectionError, type SvcppConnectionErrorCode } from '../errors.js';
import { SvcppResultError } from '../result.js';

const CONNECTION_ERROR_CODES: Record<ClientError, SvcppConnectionErrorCode> = {
  [ClientError.None]: 'ERR_SVCPP_CONNECTION_FAILED',
  [ClientError.ConnectionFailed]: 'ERR_SVCPP_CONNECTION_FAILED',
  [ClientError.UnexpectedClose]: 'ERR_SVCPP_UNEXPECTED_CLOSE',
  [ClientError.ConnectionCanceled]: 'ERR_SVCPP_CONNECTION_CANCELED',
};

export function connectionError(
  error: ClientError,
  detail: number,
  cause: ConnectionFailureSnapshot | undefined,
): SvcppConnectionError {
  return new SvcppConnectionError(
    CONNECTION_ERROR_CODES[error] ?? 'ERR_SVCPP_CONNECTION_FAILED',
    detail,
    `the client disconnected instead of becoming ready (${ClientError[error] ?? error}, ${detail})`,
    cause,
  );
}

export function abortedError(message: string): SvcppResultError {
  return new SvcppResultError({
    type: ErrorType.Aborted,
    message,
    status: HttpStatusCode.None,
    errorCode: 0,
    retryable: false,
    retryAfter: 0,
    responseBody: '',
  });
}
