// Errors thrown synchronously by svcpp: misuse of the API (a non-Ok Svcpp_Errc from the C ABI, or a call on a
// closed Client). Failures of asynchronous operations are SvcppResultError (see result.ts).
import type { ConnectionFailureSnapshot } from './connection.js';
import { errcCodes, type ErrcCode } from './generated/errc.js';

/** Every stable `code` an SvcppError can carry. */
export type SvcppErrorCode =
  | ErrcCode
  /** A method was called on a Client (or one of its objects) after close(). */
  | 'ERR_SVCPP_CLOSED'
  /** No native binary of the package serves this system (SvcppUnsupportedTargetError, lib/targets.ts). */
  | 'ERR_SVCPP_UNSUPPORTED_TARGET'
  /** The C ABI returned an Svcpp_Errc this package does not know (a newer library). */
  | 'ERR_SVCPP_UNKNOWN';

export class SvcppError extends Error {
  override name = 'SvcppError';
  /** Stable machine-readable code; the message is for humans and may change. */
  readonly code: SvcppErrorCode;

  constructor(code: SvcppErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * The error for a non-Ok Svcpp_Errc. Both backends call this, so a misuse throws the same code over N-API
 * and koffi. `detail` is Svcpp_GetLastErrorMessage (it names the C function and the rule that failed).
 */
export function errcError(errc: number, detail: string): SvcppError {
  const code = errcCodes[errc] ?? 'ERR_SVCPP_UNKNOWN';
  return new SvcppError(code, detail || `svcpp call failed with ${code} (${errc})`);
}

/** Thrown by every method of a closed Client and of the objects it created. */
export function closedError(what: string): SvcppError {
  return new SvcppError('ERR_SVCPP_CLOSED', `${what} is closed`);
}

/** Stable codes of SvcppConnectionError, one per Client.Error value. */
export type SvcppConnectionErrorCode =
  'ERR_SVCPP_CONNECTION_FAILED' | 'ERR_SVCPP_UNEXPECTED_CLOSE' | 'ERR_SVCPP_CONNECTION_CANCELED';

/**
 * connect() ended in Disconnected instead of Ready. `detail` is the gateway close code (UnexpectedClose, e.g.
 * 4004 for a rejected token — no retry happens) or the HTTP status of the failed discovery (0 when none).
 * `cause` says why (a wrong CA, a refused port, an unresolvable host, a rejected token …) and `retryable`
 * whether trying again later may help (never for certificate, URL or token failures).
 */
export class SvcppConnectionError extends Error {
  override name = 'SvcppConnectionError';
  readonly code: SvcppConnectionErrorCode;
  readonly detail: number;
  readonly retryable: boolean;
  declare readonly cause: ConnectionFailureSnapshot | undefined;

  constructor(code: SvcppConnectionErrorCode, detail: number, message: string, cause?: ConnectionFailureSnapshot) {
    super(cause ? `${message}: ${cause.message}` : message, { cause });
    this.code = code;
    this.detail = detail;
    this.retryable = cause?.retryable ?? false;
  }
}
