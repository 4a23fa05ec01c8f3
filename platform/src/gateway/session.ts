/**
 * A gateway session: what survives a dropped connection and lets the client resume. It owns the per-session
 * sequence counter and the replay ring; the connection (socket) it is attached to comes and goes.
 */
import { randomBytes } from 'node:crypto';
import type { DispatchTemplate } from './frames.js';
import { ReplayRing } from './replay-ring.js';
import type { GatewayIdentity } from './types.js';

/**
 * What a session needs of the socket it is attached to. (The connection knows its session; the session sees only
 * this, so the two modules do not import each other.)
 */
export interface FrameSink {
  send(frame: string | Buffer): void;
}

export class Session<C extends FrameSink = FrameSink> {
  /** The attached connection, or null while waiting to be resumed. */
  connection: C | null = null;
  /** Date.now() when the connection was lost; meaningful only while detached. */
  detachedAt = 0;
  /** Dispatches queued since the connection was lost. */
  missed = 0;
  /** Identify's intents: which guild events the session receives (EventAudience.intent). */
  intents = 0;

  /**
   * Set while the session is being handed over from another node (resume there, PROTOCOL.md "Several nodes"): its
   * ring is still on the way, so dispatches wait here and are appended once it arrives.
   */
  awaitingRing: DispatchTemplate[] | null = null;

  constructor(
    readonly identity: GatewayIdentity,
    /** READY is sequence 1 and is not replayable; the ring starts at 2. */
    public ring: ReplayRing,
    readonly id: string = randomBytes(16).toString('hex'),
  ) {}

  get userId(): string {
    return this.identity.userId;
  }

  get applicationId(): string {
    return this.identity.applicationId;
  }

  /** Records the next dispatch and sends it if a connection is attached. */
  dispatch(template: DispatchTemplate): void {
    if (this.awaitingRing) {
      this.awaitingRing.push(template);
      return;
    }
    const seq = this.ring.push(template);
    if (this.connection) this.connection.send(template.frame(seq));
    else this.missed++;
  }

  /** The handed-over ring arrived: it continues with what was dispatched in the meantime. */
  adoptRing(ring: ReplayRing): void {
    const waiting = this.awaitingRing ?? [];
    this.awaitingRing = null;
    this.ring = ring;
    for (const template of waiting) ring.push(template);
    // Not sent to anyone yet: a resume replays them from the ring.
    this.missed += waiting.length;
  }
}

export function newSession<C extends FrameSink>(identity: GatewayIdentity, replayBufferSize: number): Session<C> {
  return new Session<C>(identity, new ReplayRing(replayBufferSize, 2));
}
