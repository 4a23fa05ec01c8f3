/**
 * The client core end to end, over HTTPS/WSS with a test CA, on both backends: provisional login of two users,
 * Ready and the current user; a forced drop in the middle of a dispatch stream (resume, every event exactly once);
 * a terminal close code (no retry); HTTP 429 handled by waiting retry_after; connect() failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, ClientStatus, LoggingSeverity, StatusType, SvcppConnectionError } from '../../lib/index.js';
import { BACKENDS } from '../backends.js';
import { provisionalToken, startE2EPlatform, type E2EPlatform } from './harness.js';
import { e2eClient, sleep, until } from './support.js';

describe.each(BACKENDS)('session over %s', (backend) => {
  let e2e: E2EPlatform;

  beforeAll(async () => {
    e2e = await startE2EPlatform({ rateLimits: { 'users.me': { limit: 1, windowSeconds: 1 } } });
  });
  afterAll(async () => {
    await e2e.close();
  });

  it('logs two provisional users in: Ready, each sees itself as the current user', async () => {
    await using alice = e2eClient(e2e, backend);
    await using bob = e2eClient(e2e, backend);
    const statuses: ClientStatus[] = [];
    alice.on('statusChanged', (status) => statuses.push(status));

    expect(alice.currentUser).toBeUndefined();
    await alice.updateToken(await provisionalToken(e2e, `alice-${backend}`, 'Alice'));
    await bob.updateToken(await provisionalToken(e2e, `bob-${backend}`, 'Bob'));
    expect(alice.isAuthenticated).toBe(true);
    await Promise.all([alice.connect(), bob.connect()]);

    expect(statuses).toEqual([
      ClientStatus.HttpWait,
      ClientStatus.Connecting,
      ClientStatus.Connected,
      ClientStatus.Ready,
    ]);
    const me = alice.currentUser!;
    expect(me.globalName).toBe('Alice');
    expect(me.displayName).toBe('Alice');
    expect(me.isProvisional).toBe(true);
    expect(me.status).toBe(StatusType.Online);
    expect(bob.currentUser!.id).not.toBe(me.id);
    expect(alice.getUser(me.id)?.username).toBe(me.username);
    expect(alice.getUser(1n)).toBeUndefined();

    await alice.disconnect();
    expect(alice.status).toBe(ClientStatus.Disconnected);
    expect(alice.currentUser).toBeUndefined();
  });

  it('renames a provisional account and receives the USER_UPDATE', async () => {
    await using client = e2eClient(e2e, backend);
    await client.updateToken(await provisionalToken(e2e, `rename-${backend}`, 'Before'));
    await client.connect();
    const updated: bigint[] = [];
    client.on('userUpdated', (id) => updated.push(id));
    await client.updateProvisionalAccountDisplayName('After');
    const id = client.currentUser!.id;
    await until(() => updated.includes(id), 'USER_UPDATE');
    expect(client.currentUser!.displayName).toBe('After');
    await expect(client.updateProvisionalAccountDisplayName('')).rejects.toMatchObject({
      code: 'ERR_SVCPP_VALIDATION',
    });
  });

  it('resumes after a forced drop mid-stream and delivers every dispatch exactly once, in order', async () => {
    await using client = e2eClient(e2e, backend);
    await client.updateToken(await provisionalToken(e2e, `stream-${backend}`, 'Streamer'));
    await client.connect();
    const me = client.currentUser!.id.toString();
    const statuses: ClientStatus[] = [];
    client.on('statusChanged', (status) => statuses.push(status));
    const received: bigint[] = [];
    client.on('userUpdated', (id) => received.push(id));

    // Each event names a different user, so the ids received identify the events.
    const base = 900_000_000_000_000n;
    const total = 300;
    const publish = (from: number, to: number) => {
      for (let n = from; n < to; n++) {
        e2e.platform.bus.publish({
          t: 'USER_UPDATE',
          d: { id: (base + BigInt(n)).toString(), username: `stream_${n}` },
          to: { userIds: [me] },
        });
      }
    };
    publish(0, 100);
    await until(() => received.length >= 50, 'the first dispatches');
    e2e.platform.gateway.dropConnections({ userId: me });
    publish(100, total); // published while the client is away: replayed on resume
    await until(() => received.length >= total && client.status === ClientStatus.Ready, 'the replayed stream');
    await sleep(100);

    expect(received).toEqual(Array.from({ length: total }, (_, n) => base + BigInt(n)));
    expect(statuses).toContain(ClientStatus.Reconnecting);
    expect(statuses.at(-1)).toBe(ClientStatus.Ready);
    expect(client.getUser(base + 7n)?.username).toBe('stream_7');
  });

  it('stops for good after a terminal close code (4004): Disconnected, no retry', async () => {
    await using client = e2eClient(e2e, backend);
    await client.updateToken(await provisionalToken(e2e, `terminal-${backend}`));
    await client.connect();
    const me = client.currentUser!.id.toString();
    const changes: Array<[ClientStatus, ClientError, number]> = [];
    client.on('statusChanged', (status, error, detail) => changes.push([status, error, detail]));
    let expiring = 0;
    client.on('tokenExpiring', () => (expiring += 1));

    e2e.platform.gateway.disconnectUser(me, 4004);
    await until(() => client.status === ClientStatus.Disconnected, 'Disconnected');
    await sleep(2500); // longer than the first reconnect backoff would be
    expect(changes).toEqual([[ClientStatus.Disconnected, ClientError.UnexpectedClose, 4004]]);
    expect(client.status).toBe(ClientStatus.Disconnected);
    // A rejected token is what the expiration callback is for; with it the host refreshes and reconnects.
    expect(expiring).toBe(0); // not while disconnected…
    await client.updateToken(await provisionalToken(e2e, `terminal-${backend}`));
    await client.connect();
    expect(client.currentUser!.id.toString()).toBe(me);
  });

  it('waits out an HTTP 429 (retry_after) and completes the request', async () => {
    await using client = e2eClient(e2e, backend, { logMinSeverity: LoggingSeverity.Verbose });
    const lines: string[] = [];
    client.on('log', (line) => lines.push(line));
    const token = await provisionalToken(e2e, `limited-${backend}`, 'Limited');
    // users.me allows one request per second: the second is answered 429 and must be retried, not dropped.
    const [first, second] = await Promise.all([client.fetchCurrentUser(token), client.fetchCurrentUser(token)]);
    expect(first.id).toBe(second.id);
    expect(second.username).toBe(first.username);
    await until(() => lines.some((line) => /429|rate limit/i.test(line)), 'the rate-limit log line');
  });

  it('rejects connect() without a token, and a revoked token with 4004 and no retry', async () => {
    await using client = e2eClient(e2e, backend);
    await expect(client.connect()).rejects.toMatchObject({ code: 'ERR_SVCPP_CONNECTION_FAILED' });

    const token = await provisionalToken(e2e, `revoked-${backend}`);
    await client.updateToken(token);
    await client.revokeToken({ token });
    const failure = await client.connect().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SvcppConnectionError);
    expect(failure).toMatchObject({ code: 'ERR_SVCPP_UNEXPECTED_CLOSE', detail: 4004 });
  });

  it('fails requests over TLS without the test CA (verification cannot be skipped)', async () => {
    await using client = e2eClient(e2e, backend, { caFile: undefined });
    const token = await provisionalToken(e2e, `untrusted-${backend}`);
    const failure = await client.fetchCurrentUser(token).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'ERR_SVCPP_NETWORK', retryable: false });
    expect(String((failure as Error).message)).toMatch(/certificate|verify/i);
  });

  it('delivers ClientDestroyed to a pending operation when the client is closed', async () => {
    const client = e2eClient(e2e, backend);
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' }, { openUrl: () => {} });
    await sleep(50);
    await client.close();
    await expect(pending).rejects.toMatchObject({ code: 'ERR_SVCPP_CLIENT_DESTROYED' });
  });
});
