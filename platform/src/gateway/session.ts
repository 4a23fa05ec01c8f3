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
  readonly id = randomBytes(16).toString('hex');
  /** The attached connection, or null while waiting to be resumed. */
  connection: C | null = null;
  /** Date.now() when the connection was lost; meaningful only while detached. */
  detachedAt = 0;
  /** Dispatches queued since the connection was lost. */
  missed = 0;
  /** Identify's intents: which guild events the session receives (EventAudience.intent). */
  intents = 0;

  constructor(
    readonly identity: GatewayIdentity,
    /** READY is sequence 1 and is not replayable; the ring starts at 2. */
    readonly ring: ReplayRing,
  ) {}

  get userId(): string {
    return this.identity.userId;
  }

  get applicationId(): string {
    return this.identity.applicationId;
  }

  /** Records the next dispatch and sends it if a connection is attached. */
  dispatch(template: DispatchTemplate): void {
    const seq = this.ring.push(template);
    if (this.connection) this.connection.send(template.frame(seq));
    else this.missed++;
  }
}

export function newSession<C extends FrameSink>(identity: GatewayIdentity, replayBufferSize: number): Session<C> {
  return new Session<C>(identity, new ReplayRing(replayBufferSize, 2));
}
