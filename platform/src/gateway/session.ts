/**
 * A gateway session: what survives a dropped connection and lets the client resume. It owns the per-session
 * sequence counter and the replay ring; the connection (socket) it is attached to comes and goes.
 */
import { randomBytes } from 'node:crypto';
import type { Connection } from './connection.js';
import type { DispatchTemplate } from './frames.js';
import { ReplayRing } from './replay-ring.js';
import type { GatewayIdentity } from './types.js';

export class Session {
  readonly id = randomBytes(16).toString('hex');
  /** The attached connection, or null while waiting to be resumed. */
  connection: Connection | null = null;
  /** Date.now() when the connection was lost; meaningful only while detached. */
  detachedAt = 0;
  /** Dispatches queued since the connection was lost. */
  missed = 0;

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

export function newSession(identity: GatewayIdentity, replayBufferSize: number): Session {
  return new Session(identity, new ReplayRing(replayBufferSize, 2));
}
