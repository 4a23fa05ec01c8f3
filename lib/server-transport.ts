// How the server helpers (lib/server.ts) read a request that got no HTTP answer at all: the same typed error the
// client's connect() throws (SvcppConnectionError, code ERR_SVCPP_CONNECTION_FAILED), with the same reasons and the
// same retry rule as the native SDK's transport failures (net::IsTransient): everything may succeed later except a
// certificate that does not verify, another TLS failure and a URL that cannot be spoken.
import type { ConnectionFailureSnapshot } from './connection.js';
import { SvcppConnectionError } from './errors.js';
import { ConnectionFailureReason, HttpStatusCode } from '../contract/enums.js';

/** OpenSSL's verification results as Node reports them (`error.code`), and Node's own name check. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function reasonOf(code: string | undefined): ConnectionFailureReason {
  if (code === undefined) return ConnectionFailureReason.NetworkError;
  if (CERTIFICATE_CODES.has(code)) return ConnectionFailureReason.TlsVerificationFailed;
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO') return ConnectionFailureReason.TlsFailed;
  if (code === 'ECONNREFUSED') return ConnectionFailureReason.ConnectionRefused;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return ConnectionFailureReason.NameNotResolved;
  if (code === 'ETIMEDOUT') return ConnectionFailureReason.TimedOut;
  return ConnectionFailureReason.NetworkError;
}

function failure(reason: ConnectionFailureReason, message: string): ConnectionFailureSnapshot {
  const permanent =
    reason === ConnectionFailureReason.TlsVerificationFailed || reason === ConnectionFailureReason.TlsFailed;
  return { reason, message, retryable: !permanent, closeCode: 0, httpStatus: HttpStatusCode.None };
}

/** `what` ("POST https://host/api/v10/…") failed before any answer: `error` is what node:http reported. */
export function transportError(what: string, error: unknown): SvcppConnectionError {
  if (error instanceof SvcppConnectionError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new SvcppConnectionError(
    'ERR_SVCPP_CONNECTION_FAILED',
    0,
    `svcpp: ${what} failed`,
    failure(reasonOf(typeof code === 'string' ? code : undefined), message),
  );
}

/** `what` had no complete answer within `ms`, counted from when it was sent (queueing and connecting included). */
export function timeoutError(what: string, ms: number): SvcppConnectionError {
  return new SvcppConnectionError(
    'ERR_SVCPP_CONNECTION_FAILED',
    0,
    `svcpp: ${what} failed`,
    failure(ConnectionFailureReason.TimedOut, `no complete answer within ${ms} ms`),
  );
}
