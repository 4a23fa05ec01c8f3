/**
 * connect() says why it failed, on both backends: a wrong CA, a refused port, a host name that does not resolve
 * and a rejected token each reject with SvcppConnectionError whose `cause` names the reason (with the certificate
 * problem for TLS) and whose `retryable` is false for certificate, URL and token failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionFailureReason, SvcppConnectionError } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import { provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';
import { freeLoopbackPort } from '../../platform/test/support/ports.js';
import { e2eClient } from './support.js';

async function connectFailure(connect: () => Promise<void>): Promise<SvcppConnectionError> {
  const failure = await connect().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(SvcppConnectionError);
  return failure as SvcppConnectionError;
}

describe.each(BACKENDS)('connect() failures over %s', (backend) => {
  let e2e: E2EPlatform;
  let token: string;

  beforeAll(async () => {
    e2e = await startE2EPlatform();
    token = await provisionalToken(e2e, `connect-errors-${backend}`);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('a CA that does not sign the platform certificate: TLS verification failed, with the problem, not retryable', async () => {
    await using client = e2eClient(e2e, backend, { caFile: undefined }); // the system roots only
    await client.updateToken(token);
    const failure = await connectFailure(() => client.connect());
    expect(failure).toMatchObject({ code: 'ERR_SVCPP_CONNECTION_FAILED', retryable: false });
    expect(failure.cause).toMatchObject({ reason: ConnectionFailureReason.TlsVerificationFailed, retryable: false });
    expect(failure.cause!.message).toMatch(/certificate/i);
    expect(failure.message).toMatch(/certificate/i);
    expect(client.lastConnectionFailure).toEqual(failure.cause);
  });

  it('a port nothing listens on: connection refused, retryable', async () => {
    const base = `https://127.0.0.1:${await freeLoopbackPort()}`;
    await using client = e2eClient(e2e, backend, { apiBase: `${base}/api/v10`, webBase: base });
    await client.updateToken(token);
    const failure = await connectFailure(() => client.connect());
    expect(failure).toMatchObject({ code: 'ERR_SVCPP_CONNECTION_FAILED', retryable: true });
    expect(failure.cause).toMatchObject({ reason: ConnectionFailureReason.ConnectionRefused, retryable: true });
  });

  it('a host name that does not resolve: name not resolved', async () => {
    // .invalid never resolves (RFC 2606); with no resolver reachable the lookup fails at once all the same.
    await using client = e2eClient(e2e, backend, {
      apiBase: 'https://svcpp-test.invalid/api/v10',
      webBase: 'https://svcpp-test.invalid',
    });
    await client.updateToken(token);
    const failure = await connectFailure(() => client.connect());
    expect(failure).toMatchObject({ code: 'ERR_SVCPP_CONNECTION_FAILED' });
    expect(failure.cause).toMatchObject({ reason: ConnectionFailureReason.NameNotResolved });
  });

  it('a token the platform rejects: invalid token with close code 4004, not retryable', async () => {
    await using client = e2eClient(e2e, backend);
    await client.updateToken('not-a-token-the-platform-issued');
    const failure = await connectFailure(() => client.connect());
    expect(failure).toMatchObject({ code: 'ERR_SVCPP_UNEXPECTED_CLOSE', detail: 4004, retryable: false });
    expect(failure.cause).toMatchObject({
      reason: ConnectionFailureReason.InvalidToken,
      closeCode: 4004,
      retryable: false,
    });
  });

  it('no token at all: invalid token before any request, not retryable', async () => {
    await using client = e2eClient(e2e, backend);
    const failure = await connectFailure(() => client.connect());
    expect(failure.cause).toMatchObject({ reason: ConnectionFailureReason.InvalidToken, retryable: false });
  });

  it('a clean connect leaves no failure behind', async () => {
    await using client = e2eClient(e2e, backend);
    await client.updateToken(token);
    await client.connect();
    expect(client.lastConnectionFailure).toBeUndefined();
    expect(client.discardedGatewayMessageCount).toBe(0n);
  });
});
