// The webhook receiver's memory of recent event ids. Delivery is at least once (a timed-out or failed attempt is sent
// again with the same event id), so a receiver remembers which ids it has handled. This memory is per process and
// bounded: a server with several processes, or one that must survive restarts, de-duplicates in its own store,
// keyed by WebhookEvent.id.

/** What `claim` found: a new id (handle it), one already handled, or one another request is handling right now. */
export type ClaimResult = 'new' | 'handled' | 'in-progress';

export class RecentEventIds {
  /** id → finished; Map keeps insertion order, so the first key is the oldest. */
  private readonly ids = new Map<bigint, boolean>();

  /** `capacity` ids are remembered (the oldest are forgotten first); 0 remembers none. */
  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 0)
      throw new RangeError('svcpp: rememberEventIds must be a non-negative integer');
  }

  /** Marks the id as being handled when it is new; then call `finish` (handled) or `forget` (failed: retry welcome). */
  claim(id: bigint): ClaimResult {
    const finished = this.ids.get(id);
    if (finished !== undefined) return finished ? 'handled' : 'in-progress';
    if (this.capacity === 0) return 'new';
    this.ids.set(id, false);
    for (const oldest of this.ids.keys()) {
      if (this.ids.size <= this.capacity) break;
      this.ids.delete(oldest);
    }
    return 'new';
  }

  finish(id: bigint): void {
    if (this.ids.has(id)) this.ids.set(id, true);
  }

  forget(id: bigint): void {
    this.ids.delete(id);
  }

  get size(): number {
    return this.ids.size;
  }
}
