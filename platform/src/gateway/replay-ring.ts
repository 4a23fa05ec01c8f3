/**
 * The last dispatches of one session, kept so a resume can replay what the client missed. Sequence numbers of a
 * session are contiguous after READY, so entries store only the shared template; an entry's sequence is implied by
 * its position. The backing array grows with traffic up to the capacity, so idle sessions cost almost nothing.
 */
import { DispatchTemplate } from './frames.js';

/** A ring as JSON, for handing a session over to another node (gateway/cluster-sessions.ts). */
export interface ReplayRingSnapshot {
  /** Sequence of the first entry (lastSeq + 1 when there is none). */
  first: number;
  /** Each entry's dispatch name and serialised frame prefix, oldest first. */
  entries: Array<[t: string, prefix: string]>;
}

export class ReplayRing {
  private items: DispatchTemplate[] = [];
  /** Index of the oldest entry once the ring is full. */
  private head = 0;
  /** Sequence of the newest entry (0 when empty and nothing was ever pushed). */
  private last = 0;

  constructor(
    private readonly capacity: number,
    /** Sequence that the first pushed entry will have. */
    firstSeq: number,
  ) {
    this.last = firstSeq - 1;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** Oldest sequence still replayable; lastSeq + 1 when empty. */
  get firstSeq(): number {
    return this.last - this.items.length + 1;
  }

  /** Appends the next dispatch and returns its sequence. */
  push(template: DispatchTemplate): number {
    if (this.items.length < this.capacity) {
      this.items.push(template);
    } else {
      this.items[this.head] = template;
      this.head = (this.head + 1) % this.capacity;
    }
    return ++this.last;
  }

  /** Whether every dispatch after `seq` is still held. */
  canReplayAfter(seq: number): boolean {
    return seq >= this.firstSeq - 1 && seq <= this.last;
  }

  snapshot(): ReplayRingSnapshot {
    return {
      first: this.firstSeq,
      entries: [...this.after(this.firstSeq - 1)].map(([, t]) => [t.t, t.prefix.toString('utf8')]),
    };
  }

  static fromSnapshot(capacity: number, snapshot: ReplayRingSnapshot): ReplayRing {
    const ring = new ReplayRing(capacity, snapshot.first);
    for (const [t, prefix] of snapshot.entries) ring.push(new DispatchTemplate(t, undefined, prefix));
    return ring;
  }

  /** Templates with sequence > seq, oldest first (caller checks canReplayAfter). */
  *after(seq: number): Generator<[number, DispatchTemplate]> {
    const n = this.items.length;
    for (let s = Math.max(seq + 1, this.firstSeq); s <= this.last; s++) {
      const offset = s - this.firstSeq;
      yield [s, this.items[(this.head + offset) % n]!];
    }
  }
}
