import type { SessionsChange } from '../gateway/types.js';

export interface LiveSession {
  userId: string;
  applicationId: string;
  kind: 'user' | 'bot';
  /** When the pair's first session appeared (ms). */
  since: number;
}

/**
 * Who is connected to the gateway, per (user, application) pair, learnt from the gateway's session changes as seen on
 * every node (the portal area hands `observed` to the gateway as its `sessionsObserved` handler; with several nodes
 * the list covers the sessions of all of them): a pair appears with its first session and goes with its last — a
 * dropped session that can still be resumed keeps it. The gateway itself is not asked.
 */
export class LiveSessions {
  private readonly pairs = new Map<string, LiveSession>();

  constructor(private readonly now: () => number) {}

  observed(change: SessionsChange): void {
    const now = this.now();
    const key = `${change.applicationId}:${change.userId}`;
    if (change.present)
      this.pairs.set(key, {
        userId: change.userId,
        applicationId: change.applicationId,
        kind: change.kind,
        since: now,
      });
    else this.pairs.delete(key);
  }

  /** Every pair, optionally of one application, oldest first. */
  list(applicationId?: string): LiveSession[] {
    return [...this.pairs.values()]
      .filter((pair) => applicationId === undefined || pair.applicationId === applicationId)
      .sort((a, b) => a.since - b.since);
  }
}
