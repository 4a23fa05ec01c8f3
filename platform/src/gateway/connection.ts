/**
 * One WebSocket connection: its socket and outbound path, the session attached to it (if any), and the
 * bookkeeping the shared sweeper and the rate limits need. Policy lives in gateway.ts; this class only holds state
 * and performs the two ways a connection can end (close with a code, or drop without one).
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Outbound } from './outbound.js';
import { RateWindow } from './rate-window.js';
import type { Session } from './session.js';

export interface ConnectionParams {
  /** Negotiated API version (READY `v`). */
  version: number;
  /** The URL clients resume on (READY `resume_gateway_url`). */
  gatewayUrl: string;
  /** Whether the query asked for zlib-stream transport compression. */
  zlibStream: boolean;
}

export class Connection {
  session: Session<Connection> | null = null;
  /** Last heartbeat (or Hello) time; the sweeper drops connections that stop heartbeating. */
  lastHeartbeatAt: number;
  /** The sweeper already sent a server op 1 for the current overdue heartbeat. */
  heartbeatRequested = false;
  /** A session was identified or resumed at least once on this socket (the identify deadline no longer applies). */
  authenticated = false;
  /** A Resume of a session held by another node is waiting for the session to be handed over (cluster-sessions.ts). */
  awaitingHandover: string | null = null;
  /** The server decided to end this connection; further client payloads are ignored. */
  closing = false;
  readonly sendLimit: RateWindow;
  readonly presenceLimit: RateWindow;

  constructor(
    readonly ws: WebSocket,
    /** The TCP/TLS socket under ws (for write batching). */
    readonly socket: Duplex,
    public outbound: Outbound,
    readonly params: ConnectionParams,
    now: number,
    limits: { send: { count: number; windowMs: number }; presence: { count: number; windowMs: number } },
  ) {
    this.lastHeartbeatAt = now;
    this.sendLimit = new RateWindow(limits.send.count, limits.send.windowMs);
    this.presenceLimit = new RateWindow(limits.presence.count, limits.presence.windowMs);
  }

  send(frame: Buffer): void {
    this.outbound.send(frame);
  }

  /** Sends a close frame once every frame queued before it has gone out. */
  close(code: number, reason: string): void {
    this.closing = true;
    void this.outbound.flushed().then(() => this.ws.close(code, reason));
  }

  /** Ends the TCP connection without a close frame, like a network failure. */
  drop(): void {
    this.closing = true;
    this.ws.terminate();
  }
}
