/** What a client holding state from a previous start finds after the platform restarts on the same database. */
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Op } from '../../src/gateway/protocol.js';
import { RawClient } from '../gateway/client.js';
import { bot, request } from '../support/http.js';
import { startTestPlatform, tempDir, testClock } from '../support/platform.js';

/** Opens a WebSocket trusting only `ca`; resolves once the TLS and WebSocket handshakes succeeded. */
function openTrusting(url: string, ca: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}?v=10&encoding=json`, { ca });
    ws.once('open', () => {
      ws.close(1000);
      resolve();
    });
    ws.once('error', reject);
  });
}

describe('restarts', () => {
  it('keeps the TLS certificate with the database: a client trusting the first CA reconnects after a restart', async () => {
    const database = join(tempDir(), 'tls.db');
    const first = await startTestPlatform({ database, tls: true });
    const firstCa = first.caCertPem!;
    await first.close();

    const second = await startTestPlatform({ database, tls: true });
    try {
      expect(second.caCertPem).toBe(firstCa);
      const me = await request(`${second.apiBase}/users/@me`, { ca: firstCa, headers: bot(second.devApp.botToken) });
      expect(me.status).toBe(200);
      await openTrusting(second.gatewayUrl, firstCa);
    } finally {
      await second.close();
    }
  });

  it('replaces a stored certificate that is within a week of expiring (it lasts a year)', async () => {
    const database = join(tempDir(), 'tls-renew.db');
    const clock = testClock();
    const first = await startTestPlatform({ database, tls: true, now: clock.now });
    await first.close();
    clock.advance(357 * 86_400_000);
    const kept = await startTestPlatform({ database, tls: true, now: clock.now });
    await kept.close();
    expect(kept.caCertPem).toBe(first.caCertPem);
    clock.advance(2 * 86_400_000);
    const renewed = await startTestPlatform({ database, tls: true, now: clock.now });
    await renewed.close();
    expect(renewed.caCertPem).not.toBe(first.caCertPem);
    expect(Date.parse(new X509Certificate(renewed.caCertPem!).validTo)).toBeGreaterThan(clock.now() + 300 * 86_400_000);
  });

  it('an in-memory database gets a new certificate on every start', async () => {
    const [a, b] = [await startTestPlatform({ tls: true }), await startTestPlatform({ tls: true })];
    try {
      expect(a.caCertPem).not.toBe(b.caCertPem);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gateway sessions live in memory: after a restart a resume gets op 9 (d: false) and a fresh Identify works', async () => {
    const database = join(tempDir(), 'sessions.db');
    const first = await startTestPlatform({ database });
    const token = first.devApp.botToken;
    const client = await RawClient.open(first.gatewayUrl);
    const ready = await client.identify(token);
    const sessionId = (ready.d as { session_id: string }).session_id;
    await first.close();
    await client.closed;

    const second = await startTestPlatform({ database });
    try {
      const resumer = await RawClient.open(second.gatewayUrl);
      await resumer.nextOf(Op.Hello);
      resumer.send(Op.Resume, { token, session_id: sessionId, seq: ready.s });
      expect(await resumer.next()).toEqual({ op: Op.InvalidSession, d: false, s: null, t: null });
      resumer.send(Op.Identify, { token, properties: { os: 'linux', browser: 'test', device: 'test' }, intents: 0 });
      const fresh = await resumer.nextOf(Op.Dispatch, 'READY');
      expect((fresh.d as { session_id: string }).session_id).not.toBe(sessionId);
      await resumer.close();
    } finally {
      await second.close();
    }
  });
});
