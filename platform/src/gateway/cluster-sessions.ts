/**
 * Which gateway sessions exist on which node, agreed by every node through the replicated log's `sessions`
 * channel (PROTOCOL.md "Several nodes"). It answers the one presence query (does the user hold a session for the
 * application anywhere?), reports a (user, application) pair's first and last session once for the whole
 * deployment — on the node whose entry made the change, so presence, lobby and voice side effects happen once —
 * and moves a session to the node a client resumed on.
 *
 * A node declared down (events/node-liveness.ts: its liveness key expired) loses its sessions at that entry's place
 * in the order, as if each had closed; a resume that was waiting for the dead node's ring gets none (op 9).
 *
 * On one node the log is in-process and every call below takes effect before it returns, as before.
 */
import { NODES_CHANNEL, type ClusterLog, type NodeDownEntry } from '../events/cluster-log.js';
import type { ReplayRingSnapshot } from './replay-ring.js';
import type { GatewayIdentity, SessionsChange } from './types.js';

const CHANNEL = 'sessions';

interface SessionRecord {
  node: string;
  identity: GatewayIdentity;
  intents: number;
  /** Claimed by `node`, whose ring the previous owner (this) has not appended yet. */
  handingOverFrom?: string;
}

type SessionsEntry =
  | { op: 'open'; id: string; node: string; identity: GatewayIdentity; intents: number }
  | { op: 'close'; id: string }
  /** A client resumed the session on `node`: from this point of the order the session belongs there. */
  | { op: 'claim'; id: string; node: string }
  /** The previous owner's answer to a claim: the session's replay ring (null: it had just ended there). */
  | { op: 'ring'; id: string; node: string; ring: ReplayRingSnapshot | null }
  | { op: 'disconnect-user'; userId: string; closeCode: number };

/** What the gateway does when an entry concerns its own sessions. */
export interface ClusterSessionEvents {
  /** First / last session of a pair in the deployment, on every node; `origin` on the node whose entry caused it. */
  pairChanged(change: SessionsChange, origin: boolean): void;
  /** This node owned the session and another node claimed it: give up the session and return its ring. */
  handOver(sessionId: string): ReplayRingSnapshot | null;
  /** This node claimed the session: it belongs here from now on (identity and intents as opened). */
  claimed(sessionId: string, record: { identity: GatewayIdentity; intents: number }): void;
  /** This node claimed a session that no longer exists anywhere. */
  claimFailed(sessionId: string): void;
  /** The ring of a session this node claimed (null: the session had just ended on its old node). */
  ringArrived(sessionId: string, ring: ReplayRingSnapshot | null): void;
  disconnectUser(userId: string, closeCode: number): void;
  /**
   * This node was declared down while it was alive (frozen, cut off from the broker): every other node dropped
   * these sessions of it, so it must end their connections too.
   */
  lostOwnSessions(sessionIds: string[]): void;
}

export class ClusterSessions {
  private readonly sessions = new Map<string, SessionRecord>();
  /** Sessions per `${applicationId}:${userId}` across every node. */
  private readonly pairs = new Map<string, number>();
  private readonly unsubscribe: Array<() => void>;
  /** Run when this node's `open` entry has been applied (its pair change, if any, already reported). */
  private readonly afterOpen = new Map<string, () => void>();

  constructor(
    private readonly log: ClusterLog,
    private readonly events: ClusterSessionEvents,
  ) {
    // History too: a node that starts later learns the sessions of the nodes already running.
    this.unsubscribe = [
      log.on<SessionsEntry>(CHANNEL, (entry, origin, fromHistory) => this.apply(entry, origin, fromHistory), {
        history: true,
      }),
      log.on<NodeDownEntry>(
        NODES_CHANNEL,
        (entry, origin, fromHistory) => this.nodeDown(entry.node, origin, fromHistory),
        { history: true },
      ),
    ];
  }

  close(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  /** `then` runs once the entry is applied here: at once on one node, when it comes back with a broker. */
  opened(id: string, identity: GatewayIdentity, intents: number, then?: () => void): void {
    if (then) this.afterOpen.set(id, then);
    this.log.append(CHANNEL, { op: 'open', id, node: this.log.nodeId, identity, intents } satisfies SessionsEntry);
  }

  closed(id: string): void {
    this.log.append(CHANNEL, { op: 'close', id } satisfies SessionsEntry);
  }

  claim(id: string): void {
    this.log.append(CHANNEL, { op: 'claim', id, node: this.log.nodeId } satisfies SessionsEntry);
  }

  disconnectUser(userId: string, closeCode: number): void {
    this.log.append(CHANNEL, { op: 'disconnect-user', userId, closeCode } satisfies SessionsEntry);
  }

  /** The session as known to the deployment, when another node holds it. */
  remote(id: string): { identity: GatewayIdentity } | undefined {
    const record = this.sessions.get(id);
    return record && record.node !== this.log.nodeId ? record : undefined;
  }

  hasSession(userId: string, applicationId: string): boolean {
    return (this.pairs.get(`${applicationId}:${userId}`) ?? 0) > 0;
  }

  private apply(entry: SessionsEntry, origin: boolean, fromHistory: boolean): void {
    const self = this.log.nodeId;
    switch (entry.op) {
      case 'open': {
        if (this.sessions.has(entry.id)) return;
        this.sessions.set(entry.id, { node: entry.node, identity: entry.identity, intents: entry.intents });
        if (this.count(entry.identity, 1) === 1) this.changed(entry.identity, true, origin, fromHistory);
        const then = origin ? this.afterOpen.get(entry.id) : undefined;
        if (then) {
          this.afterOpen.delete(entry.id);
          then();
        }
        return;
      }
      case 'close': {
        const record = this.sessions.get(entry.id);
        if (!record) return;
        this.sessions.delete(entry.id);
        this.afterOpen.delete(entry.id);
        if (this.count(record.identity, -1) === 0) this.changed(record.identity, false, origin, fromHistory);
        return;
      }
      case 'claim': {
        const record = this.sessions.get(entry.id);
        if (!record || record.node === entry.node) {
          if (origin) this.events.claimFailed(entry.id);
          return;
        }
        const previous = record.node;
        record.node = entry.node;
        record.handingOverFrom = previous;
        // The previous owner stops dispatching to the session at this point of the order and the claimer starts
        // buffering at the same point: nothing is lost or sent twice in between.
        if (previous === self) {
          const ring = this.events.handOver(entry.id);
          this.log.append(CHANNEL, { op: 'ring', id: entry.id, node: entry.node, ring } satisfies SessionsEntry);
        }
        if (origin) this.events.claimed(entry.id, record);
        return;
      }
      case 'ring': {
        const record = this.sessions.get(entry.id);
        if (record?.node === entry.node) delete record.handingOverFrom;
        if (entry.node === self) this.events.ringArrived(entry.id, entry.ring);
        return;
      }
      case 'disconnect-user': {
        this.events.disconnectUser(entry.userId, entry.closeCode);
        return;
      }
    }
  }

  /** Drops what a dead node held: its sessions (each as closed) and the rings it still owed to claimers. */
  private nodeDown(dead: string, origin: boolean, fromHistory: boolean): void {
    const self = this.log.nodeId;
    const lost: string[] = [];
    for (const [id, record] of [...this.sessions]) {
      const owner = record.node === dead;
      // Claimed after the node died: its ring never comes, so the session exists nowhere; the claimer answers the
      // resume with op 9.
      const orphaned = record.handingOverFrom === dead;
      if (!owner && !orphaned) continue;
      this.sessions.delete(id);
      this.afterOpen.delete(id);
      if (owner && dead === self) lost.push(id);
      if (orphaned && record.node === self) this.events.ringArrived(id, null);
      if (this.count(record.identity, -1) === 0) this.changed(record.identity, false, origin, fromHistory);
    }
    if (lost.length > 0) this.events.lostOwnSessions(lost);
  }

  private count(identity: GatewayIdentity, delta: 1 | -1): number {
    const key = `${identity.applicationId}:${identity.userId}`;
    const n = (this.pairs.get(key) ?? 0) + delta;
    if (n > 0) this.pairs.set(key, n);
    else this.pairs.delete(key);
    return n;
  }

  private changed(identity: GatewayIdentity, present: boolean, origin: boolean, fromHistory: boolean): void {
    this.events.pairChanged(
      { userId: identity.userId, applicationId: identity.applicationId, kind: identity.kind, present, fromHistory },
      origin,
    );
  }
}
