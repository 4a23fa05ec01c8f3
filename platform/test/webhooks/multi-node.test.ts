/**
 * Two platform processes on one database (PostgreSQL in the SVCPP_TEST_DB=postgres run, one SQLite file otherwise)
 * deliver the webhook outbox together: every event reaches the receiver exactly once, whichever node queued it and
 * whichever node's retry got it through — with and without the broker that joins the nodes' gateways.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StartOptions } from '../../src/index.js';
import { testDatabase } from '../support/database.js';
import { request } from '../support/http.js';
import { authorizeCode, createApp, eventually, tempDir } from '../support/platform.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { startNodeProcess as startNode } from '../support/node-process.js';
import { startTemporaryRedis } from '../support/redis-server.js';

type OutboxEntry = { id: string; status: string; attempts: number };

describe('webhook outbox with two platform nodes on one database', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  it.each([{ broker: false }, { broker: true }])(
    'delivers every event exactly once while both nodes retry the same outbox (broker: $broker)',
    async ({ broker }) => {
      const receiver = await startWebhookReceiver();
      cleanup.push(() => receiver.close());
      receiver.status = 503; // refused at first: every event stays pending and both nodes keep retrying all of them
      const database = testDatabase(join(tempDir(), 'shared.db'));
      const redis = broker ? await startTemporaryRedis() : undefined;
      if (redis) cleanup.push(() => redis.stop());
      const options: StartOptions = {
        database,
        webhookRetry: { baseMs: 5, maxMs: 20 },
        ...(redis && { broker: redis.url }),
      };
      const nodeA = await startNode(options);
      cleanup.push(() => nodeA.stop());
      const nodeB = await startNode(options);
      cleanup.push(() => nodeB.stop());

      // One application (created through node A, seen by node B through the database); events queued on both nodes.
      const platformA = { apiBase: nodeA.apiBase, httpUrl: nodeA.httpUrl } as Parameters<typeof createApp>[0];
      const platformB = { apiBase: nodeB.apiBase, httpUrl: nodeB.httpUrl } as Parameters<typeof createApp>[0];
      const app = await createApp(platformA, { name: 'Two Node Game', webhook_url: receiver.url });
      const EVENTS = 30;
      for (let i = 0; i < EVENTS; i++) {
        await authorizeCode(i % 2 === 0 ? platformA : platformB, {
          clientId: app.id,
          scope: 'identify',
          user: 'dev_user',
        });
      }
      const outbox = async (): Promise<OutboxEntry[]> =>
        (await request(`${nodeB.apiBase}/dev/webhooks/outbox`)).body as OutboxEntry[];
      // Every event has been refused at least twice (both nodes retry the whole outbox) before the receiver recovers.
      await eventually(async () => {
        const entries = await outbox();
        return entries.length === EVENTS && entries.every((entry) => entry.attempts >= 2);
      });
      receiver.status = 204;

      await eventually(async () => (await outbox()).every((entry) => entry.status === 'delivered'));
      const ids = receiver.received.map((webhook) => String(webhook.body.event.id));
      expect(ids).toHaveLength(EVENTS);
      expect(new Set(ids).size).toBe(EVENTS);
      expect(new Set(ids)).toEqual(new Set((await outbox()).map((entry) => entry.id)));
      expect(receiver.received.every((webhook) => webhook.body.application_id === app.id)).toBe(true);
    },
    120_000,
  ); // two node processes compile their TypeScript at start (tsx): seconds each on a loaded machine
});
