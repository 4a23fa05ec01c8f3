/** How webhook delivery retries (the `webhookRetry` start option; any subset). */
export interface WebhookRetryOptions {
  /** First retry delay; doubles on each failure. */
  baseMs: number;
  /** Upper bound of one retry delay. */
  maxMs: number;
  /** An event still undelivered this long after it was created is marked failed (published: 10 min). */
  giveUpAfterMs: number;
  /** Per-attempt timeout (published: the receiver must answer within 3 s). */
  timeoutMs: number;
  /**
   * How long a claimed delivery stays invisible to the other nodes on the database, so a slow receiver never gets
   * one event from two of them; a node that dies mid-delivery leaves its claims to be retried after it. Longer than
   * `timeoutMs`; default the larger of 60 s and 4 × `timeoutMs`.
   */
  leaseMs?: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetryOptions = {
  baseMs: 1_000,
  maxMs: 60_000,
  giveUpAfterMs: 10 * 60_000,
  timeoutMs: 3_000,
};
