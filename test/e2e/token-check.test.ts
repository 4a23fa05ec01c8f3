/**
 * UpdateToken's expiry check (GET /oauth2/@me) end to end, on both backends: it warns ('tokenExpiring') when the token
 * has less than a minute left, and it waits while a connection is being made, so a connect() right after
 * updateToken() is not served after it (native/SEMANTICS.md, Users: `SetTokenExpirationCallback`).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../backends.js';
import { provisionalToken, startE2EPlatform } from './harness.js';
import { e2eClient, until } from './support.js';

/** The platform's log lines (request logs and the gateway's debug lines), as parsed JSON, in the order written. */
function logSink(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

const requestTo = (url: string) => (line: Record<string, unknown>) =>
  line.msg === 'incoming request' && (line.req as { url?: string } | undefined)?.url === url;
const isTokenCheck = requestTo('/api/v10/oauth2/@me');

describe.each(BACKENDS)('token expiry check over %s', (backend) => {
  it('reaches the platform after the connection it would have delayed: after the gateway discovery and IDENTIFY', async () => {
    const sink = logSink();
    const e2e = await startE2EPlatform({ logger: pino({ level: 'debug' }, sink.stream) });
    try {
      await using client = e2eClient(e2e, backend);
      await client.updateToken(await provisionalToken(e2e, `check-order-${backend}`));
      await client.connect();
      await until(() => sink.lines.some(isTokenCheck), 'the token check, after Ready');
      const at = (predicate: (line: Record<string, unknown>) => boolean) => sink.lines.findIndex(predicate);
      const discovery = at(requestTo('/api/v10/gateway'));
      const identified = at((line) => line.msg === 'gateway session identified');
      expect(discovery).toBeGreaterThanOrEqual(0);
      expect(identified).toBeGreaterThan(discovery);
      expect(at(isTokenCheck)).toBeGreaterThan(identified);
    } finally {
      await e2e.close();
    }
  });

  it('without a connect, goes anyway; a token with less than a minute left is told once connected', async () => {
    const sink = logSink();
    const e2e = await startE2EPlatform({
      logger: pino({ level: 'info' }, sink.stream),
      tokenLifetimes: { provisionalAccessSeconds: 30 },
    });
    try {
      await using client = e2eClient(e2e, backend);
      let expiring = 0;
      client.on('tokenExpiring', () => (expiring += 1));
      await client.updateToken(await provisionalToken(e2e, `check-soon-${backend}`));
      await until(() => sink.lines.some(isTokenCheck), 'the token check, with no connect to wait for');
      // Seen while disconnected: told at the next connect (native/SEMANTICS.md, Users: `SetTokenExpirationCallback`).
      await client.connect();
      await until(() => expiring > 0, 'tokenExpiring');
      expect(expiring).toBe(1);
    } finally {
      await e2e.close();
    }
  });
});
