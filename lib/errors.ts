// Errors thrown synchronously by svcpp: misuse of the API (a non-Ok Svcpp_Errc from the C ABI, or a call on a
// closed Client). Failures of asynchronous operations are SvcppResultError (see result.ts).
import { errcCodes, type ErrcCode } from './generated/errc.js';

/** Every stable `code` an SvcppError can carry. */
export type SvcppErrorCode =
  | ErrcCode
  /** A method was called on a Client (or one of its objects) after close(). */
  | 'ERR_SVCPP_CLOSED'
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
