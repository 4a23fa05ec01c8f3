/**
 * SvcppServer (lib/server.ts) under load and without answers: a burst of calls against the real platform succeeds,
 * and a request that gets no answer rejects with the SDK's typed, retryable SvcppConnectionError on the deadline's own
 * clock — not after the keep-alive agent's 5 s idle bound on sockets that are still connecting or waiting.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcppConnectionError, SvcppError } from '../lib/errors.js';
import { ConnectionFailureReason } from '../contract/enums.js';
import { SvcppServer } from '../lib/server.js';
import { startPlatform, type RunningPlatform } from '../platform/src/index.js';

/** A loopback TCP server that accepts connections and never says a word (a stuck upstream). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<SvcppConnectionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SvcppConnectionError);
  return error as SvcppConnectionError;
}

describe('SvcppServer under a burst', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ port: 0, tls: true, logger: false, database: ':memory:' });
  });
  afterAll(async () => {
    await platform.close();
  });

  it('60 concurrent createProvisionalToken calls over TLS all succeed, one account each', async () => {
    const server = new SvcppServer({
      apiBase: platform.apiBase,
      botToken: platform.devApp.botToken,
      applicationId: platform.devApp.id,
      ca: platform.caCertPem!,
    });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => server.createProvisionalToken({ externalUserId: `burst-${i}` })),
    );
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    expect(failures).toEqual([]);
    const tokens = results.map(
      (result) => (result as PromiseFulfilledResult<{ accessToken: string }>).value.accessToken,
    );
    expect(new Set(tokens).size).toBe(60);
  }, 120_000);

  it("a call survives its process being busy past the sockets' 5 s idle bound while it connects", async () => {
    // A game server busy with a burst (or anything else) does not run its event loop for a while. The platform here
    // shares this process, so it is just as busy: the answer simply comes later. The old deadline, a socket timeout,
    // was the agent's 5 s idle bound while the socket was connecting, and fired first when the loop came back.
    const server = new SvcppServer({
      apiBase: platform.apiBase,
      botToken: platform.devApp.botToken,
      applicationId: platform.devApp.id,
      ca: platform.caCertPem!,
    });
    const call = server.createProvisionalToken({ externalUserId: 'busy' });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5_500);
    await expect(call).resolves.toMatchObject({ tokenType: 'Bearer' });
  });
});

describe('SvcppServer without an answer', () => {
  const serverAt = (port: number, timeoutMs?: number) =>
    new SvcppServer({
      apiBase: `http://127.0.0.1:${port}/api/v10`,
      botToken: 'bot',
      applicationId: '5',
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });

  it('a request nobody answers rejects at its own deadline (past the 5 s socket idle bound) with a retryable SvcppConnectionError', async () => {
    const silent = await silentServer();
    try {
      const error = await rejectionOf(serverAt(silent.port, 6_000).createProvisionalToken({ externalUserId: 'stuck' }));
      expect(error).toMatchObject({
        code: 'ERR_SVCPP_CONNECTION_FAILED',
        retryable: true,
        cause: { reason: ConnectionFailureReason.TimedOut },
      });
      expect(error.message).toContain('within 6000 ms');
      expect(error.message).toContain(`POST http://127.0.0.1:${silent.port}/api/v10/partner-sdk/token/bot`);
    } finally {
      await silent.close();
    }
  }, 30_000);

  it('a refused connection is a retryable SvcppConnectionError (ConnectionRefused)', async () => {
    const silent = await silentServer();
    await silent.close();
    const error = await rejectionOf(serverAt(silent.port).getLobby('1'));
    expect(error).toMatchObject({
      code: 'ERR_SVCPP_CONNECTION_FAILED',
      retryable: true,
      cause: { reason: ConnectionFailureReason.ConnectionRefused },
    });
  });

  it('a timeout that is not a positive number of milliseconds is refused up front', () => {
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => serverAt(1, timeoutMs)).toThrow(SvcppError);
      expect(() => serverAt(1, timeoutMs)).toThrow(/timeoutMs must be a positive number/);
    }
  });
});
