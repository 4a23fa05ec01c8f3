import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningPlatform } from '../../src/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { request } from '../support/http.js';
import { signatureIsValid, startWebhookReceiver } from '../support/webhook-receiver.js';
import { authorizeCode, createApp, eventually, startTestPlatform, tempDir } from '../support/platform.js';

describe('webhook events', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });
  const track = <T extends { close(): Promise<void> }>(thing: T): T => {
    cleanup.push(() => thing.close());
    return thing;
  };
  const outbox = async (platform: RunningPlatform) =>
    (await request(`${platform.apiBase}/dev/webhooks/outbox`)).body as Array<{
      id: string;
      status: string;
      attempts: number;
      last_error: string | null;
      event: { event: { id: string; type: string } };
    }>;

  it('sends APPLICATION_AUTHORIZED with the published envelope and a valid Ed25519 signature', async () => {
    const receiver = track(await startWebhookReceiver());
    const platform = track(await startTestPlatform());
    const app = await createApp(platform, { name: 'Webhook Game', webhook_url: receiver.url });
    await authorizeCode(platform, { clientId: app.id, scope: 'identify email', user: 'dev_user' });

    const event = await receiver.waitForEvent('APPLICATION_AUTHORIZED');
    expect(event.headers['content-type']).toBe('application/json');
    expect(event.body).toEqual({
      version: 1,
      application_id: app.id,
      type: 1,
      event: {
        id: expect.stringMatching(/^\d{17,20}$/),
        type: 'APPLICATION_AUTHORIZED',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: {
          integration_type: 1,
          scopes: ['identify', 'email'],
          user: expect.objectContaining({ username: 'dev_user', discriminator: '0' }),
        },
      },
    });
    const timestamp = Number(event.headers['x-signature-timestamp']);
    expect(Number.isInteger(timestamp)).toBe(true);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(300);
    expect(event.headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/);
    expect(signatureIsValid(app.public_key, event)).toBe(true);
    expect(signatureIsValid(app.public_key, { ...event, raw: event.raw.replace('dev_user', 'dev_usex') })).toBe(false);
    expect(signatureIsValid(platform.devApp.publicKey, event)).toBe(false);
  });

  it('retries failed deliveries with backoff until the receiver accepts', async () => {
    const receiver = track(await startWebhookReceiver());
    receiver.status = 500;
    const platform = track(await startTestPlatform({ webhookRetry: { baseMs: 5, maxMs: 20 } }));
    const app = await createApp(platform, { name: 'Flaky Receiver Game', webhook_url: receiver.url });
    await authorizeCode(platform, { clientId: app.id, scope: 'identify', user: 'dev_user' });

    const failing = await eventually(async () => (await outbox(platform)).find((entry) => entry.attempts >= 3));
    expect(failing.status).toBe('pending');
    expect(failing.last_error).toBe('HTTP 500');
    receiver.status = 204;
    await receiver.waitForEvent('APPLICATION_AUTHORIZED');
    const delivered = await eventually(async () =>
      (await outbox(platform)).find((entry) => entry.status === 'delivered'),
    );
    expect(delivered.attempts).toBeGreaterThanOrEqual(4);
  });

  it('gives every event an id that re-deliveries keep, so receivers can drop duplicates', async () => {
    const receiver = track(await startWebhookReceiver());
    receiver.status = 500;
    const platform = track(await startTestPlatform({ webhookRetry: { baseMs: 5, maxMs: 20 } }));
    const app = await createApp(platform, { name: 'Dedup Game', webhook_url: receiver.url });
    await authorizeCode(platform, { clientId: app.id, scope: 'identify', user: 'dev_user' });
    await authorizeCode(platform, { clientId: app.id, scope: 'identify email', user: 'dev_user' });

    // Both events refused at least twice, then accepted: every delivery of one event carries the same id.
    await eventually(async () => (await outbox(platform)).filter((entry) => entry.attempts >= 2).length === 2);
    receiver.status = 204;
    await eventually(async () => (await outbox(platform)).every((entry) => entry.status === 'delivered'));
    const entries = await outbox(platform);
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry.event.event.id).toBe(entry.id);
      const deliveries = receiver.requests.filter((webhook) => webhook.body.event.id === entry.id);
      expect(deliveries.length).toBe(entry.attempts);
      expect(new Set(deliveries.map((webhook) => webhook.raw)).size).toBe(1);
    }
    expect(entries[0]!.id).not.toBe(entries[1]!.id);
  });

  it('gives events queued by a version without event ids their row id', () => {
    const database = join(tempDir(), 'old-outbox.db');
    const old = openSqliteStore(database);
    const envelope = {
      version: 1,
      application_id: '1',
      type: 1,
      event: { type: 'APPLICATION_DEAUTHORIZED', timestamp: new Date(0).toISOString(), data: {} },
    };
    old.outbox.insert({
      id: '42',
      applicationId: '1',
      body: JSON.stringify(envelope),
      attempts: 0,
      nextAttemptAt: 0,
      status: 'pending',
      lastError: null,
      createdAt: 0,
      deliveredAt: null,
    });
    // As if the database had been written before the migration existed.
    old.meta.set('schema:webhook-event-ids', '0');
    old.close();
    const store = openSqliteStore(database);
    try {
      expect(JSON.parse(store.outbox.get('42')!.body)).toEqual({ ...envelope, event: { ...envelope.event, id: '42' } });
    } finally {
      store.close();
    }
  });

  it('marks an event failed once it has been retried for longer than giveUpAfterMs', async () => {
    const receiver = track(await startWebhookReceiver());
    receiver.status = 503;
    const platform = track(await startTestPlatform({ webhookRetry: { baseMs: 5, maxMs: 10, giveUpAfterMs: 40 } }));
    const app = await createApp(platform, { name: 'Dead Receiver Game', webhook_url: receiver.url });
    await authorizeCode(platform, { clientId: app.id, scope: 'identify', user: 'dev_user' });
    const failed = await eventually(async () => (await outbox(platform)).find((entry) => entry.status === 'failed'));
    expect(failed.last_error).toBe('HTTP 503');
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses to start with a delivery lease no longer than the attempt timeout', async () => {
    // Another node would claim an event whose attempt is still waiting for its receiver, and send it twice.
    for (const leaseMs of [3_000, 1_000, 0, Number.NaN]) {
      await expect(startTestPlatform({ webhookRetry: { timeoutMs: 3_000, leaseMs } })).rejects.toThrow(
        /webhookRetry\.leaseMs \(.*\) must be longer than webhookRetry\.timeoutMs \(3000\)/,
      );
    }
    const platform = track(await startTestPlatform({ webhookRetry: { timeoutMs: 3_000, leaseMs: 3_001 } }));
    expect(platform.httpUrl).toMatch(/^http:/);
  });

  it('queues nothing for applications without a webhook URL', async () => {
    const platform = track(await startTestPlatform());
    await authorizeCode(platform, { clientId: platform.devApp.id, scope: 'identify', user: 'dev_user' });
    expect(await outbox(platform)).toEqual([]);
  });

  it('keeps undelivered events across a restart and delivers them afterwards', async () => {
    const database = join(tempDir(), 'webhooks.db');
    const probe = await startWebhookReceiver();
    const url = probe.url;
    const port = Number(new URL(url).port);
    await probe.close(); // the receiver is down while the event happens

    const first = await startTestPlatform({ database, webhookRetry: { baseMs: 5, maxMs: 20 } });
    const app = await createApp(first, { name: 'Restart Game', webhook_url: url });
    await authorizeCode(first, { clientId: app.id, scope: 'identify', user: 'dev_user' });
    await eventually(async () => (await outbox(first)).find((entry) => entry.attempts >= 1));
    await first.close();

    const receiver = track(await startWebhookReceiver(port));
    const second = track(await startTestPlatform({ database, webhookRetry: { baseMs: 5, maxMs: 20 } }));
    expect(second.devApp.id).toBe(first.devApp.id);
    const event = await receiver.waitForEvent('APPLICATION_AUTHORIZED');
    expect(event.body.application_id).toBe(app.id);
    expect(signatureIsValid(app.public_key, event)).toBe(true);
    expect(receiver.received).toHaveLength(1);
  });
});
