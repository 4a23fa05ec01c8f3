import type { Logger } from 'pino';
import type { WebhookRetryOptions } from './retry-options.js';
import type { OutboundHttpClient } from '../outbound/http-client.js';
import type { OutboxRecord, Store } from '../store/types.js';
import { signatureHeaders } from './signing.js';

/**
 * Sends queued webhook events from the store's outbox. Every attempt is recorded before the next one is planned,
 * so a restart picks up exactly where the previous process stopped; events are only ever marked delivered after a
 * 2xx answer. Failures retry with exponential backoff (base · 2^attempt, capped) until `giveUpAfterMs` has
 * passed since the event was created; then the entry is marked failed and kept for inspection. Entries are claimed
 * before an attempt (`OutboxRepository.claimDue`), so several platform nodes on one database never send one event
 * twice.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private rerun = false;

  constructor(
    private readonly store: Store,
    private readonly http: OutboundHttpClient,
    private readonly retry: WebhookRetryOptions,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** Starts delivering whatever the outbox holds (events left over from a previous run included). */
  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Asks for a delivery pass soon; call after committing new outbox entries. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.clearTimer();
    this.timer = setTimeout(() => this.runPass(), 0);
  }

  /** Stops planning attempts and waits for the ones in flight; pending entries stay in the outbox. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await this.running;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private runPass(): void {
    this.timer = undefined;
    this.running = this.deliverDue()
      .catch((error: unknown) => this.logger.error({ err: error }, 'webhook delivery pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.rerun) {
          this.rerun = false;
          this.wake();
        } else {
          this.scheduleNext();
        }
      });
  }

  private scheduleNext(): void {
    const next = this.store.outbox.nextDueAt();
    if (next === undefined) return;
    const delay = Math.max(0, next - this.now());
    // Timers beyond ~24.8 days overflow; re-check at least daily.
    this.timer = setTimeout(() => this.runPass(), Math.min(delay, 86_400_000));
    this.timer.unref();
  }

  private async deliverDue(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const now = this.now();
      const batch = this.store.outbox.claimDue(now, 20, now + webhookLeaseMs(this.retry));
      if (batch.length === 0) return;
      await Promise.all(batch.map((entry) => this.attempt(entry)));
    }
  }

  private async attempt(entry: OutboxRecord): Promise<void> {
    const app = this.store.applications.get(entry.applicationId);
    // An entry with its own target (a lobby's override URL) keeps it; others follow the application's current URL.
    const url = entry.targetUrl ?? app?.webhookUrl;
    if (!app || !url) {
      this.store.outbox.update({ ...entry, status: 'failed', lastError: 'application has no webhook URL' });
      return;
    }
    let error: string | null = null;
    try {
      const headers = {
        'content-type': 'application/json',
        ...signatureHeaders(app.privateKeyPem, entry.body, Math.floor(this.now() / 1000)),
      };
      const response = await this.http.request(url, {
        method: 'POST',
        headers,
        body: entry.body,
        timeoutMs: this.retry.timeoutMs,
        maxBytes: 64 * 1024,
      });
      if (response.status < 200 || response.status >= 300) error = `HTTP ${response.status}`;
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    const attempts = entry.attempts + 1;
    const now = this.now();
    if (error === null) {
      this.store.outbox.update({ ...entry, attempts, status: 'delivered', lastError: null, deliveredAt: now });
      return;
    }
    const delay = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (attempts - 1));
    const givingUp = now + delay - entry.createdAt > this.retry.giveUpAfterMs;
    this.logger.warn(
      { eventId: entry.id, applicationId: entry.applicationId, attempts, error, givingUp },
      'webhook delivery failed',
    );
    this.store.outbox.update({
      ...entry,
      attempts,
      status: givingUp ? 'failed' : 'pending',
      lastError: error,
      nextAttemptAt: now + delay,
    });
  }
}

/**
 * How long a claimed entry stays invisible to other nodes (WebhookRetryOptions.leaseMs): past one attempt's timeout,
 * so a slow receiver never sees the same event from two nodes; short enough that a crashed node's claims are retried
 * soon. Refuses a lease that an attempt could outlast.
 */
export function webhookLeaseMs(retry: WebhookRetryOptions): number {
  if (retry.leaseMs === undefined) return Math.max(60_000, 4 * retry.timeoutMs);
  if (!(retry.leaseMs > retry.timeoutMs)) {
    throw new RangeError(
      `webhookRetry.leaseMs (${retry.leaseMs}) must be longer than webhookRetry.timeoutMs (${retry.timeoutMs}): ` +
        'an attempt still waiting for its receiver would otherwise be claimed and sent again by another node',
    );
  }
  return retry.leaseMs;
}
