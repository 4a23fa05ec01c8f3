/**
 * One gateway session of the desktop user for one application (PROTOCOL.md §12.8): what makes the user present for
 * that application while its games run, carries their presence (op 3, as the published desktop client sets
 * activities) and brings the dispatches addressed to the user (invites, friends' presences). The published gateway
 * protocol: Hello → Identify with `Bearer <token>` → READY, heartbeats at the announced interval.
 */
import { WebSocket } from 'ws';

export interface Dispatch {
  t: string;
  d: unknown;
}

interface Frame {
  op: number;
  d: unknown;
  s?: number | null;
  t?: string | null;
}

const OP = { DISPATCH: 0, HEARTBEAT: 1, IDENTIFY: 2, PRESENCE_UPDATE: 3, HELLO: 10, HEARTBEAT_ACK: 11 } as const;

export class GatewaySession {
  private seq: number | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Heartbeats sent and not yet acknowledged, oldest first: each waiter settles with its ACK. */
  private readonly acks: Array<() => void> = [];
  private closedByUs = false;
  readonly ready: Promise<Record<string, unknown>>;
  /** Settles when the socket is gone, whoever closed it. */
  readonly gone: Promise<{ code: number; byUs: boolean }>;

  private constructor(
    private readonly socket: WebSocket,
    token: string,
    private readonly onDispatch: (dispatch: Dispatch) => void,
  ) {
    this.gone = new Promise((resolve) =>
      socket.once('close', (code) => {
        clearInterval(this.heartbeat);
        for (const ack of this.acks.splice(0)) ack();
        resolve({ code, byUs: this.closedByUs });
      }),
    );
    this.ready = new Promise((resolve, reject) => {
      socket.once('error', reject);
      void this.gone.then(({ code }) => reject(new Error(`the gateway closed the session (${code}) before READY`)));
      socket.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as Frame;
        if (typeof frame.s === 'number') this.seq = frame.s;
        if (frame.op === OP.HELLO) {
          const interval = (frame.d as { heartbeat_interval: number }).heartbeat_interval;
          this.heartbeat = setInterval(() => this.beat(), interval);
          this.heartbeat.unref();
          this.send(OP.IDENTIFY, {
            token: `Bearer ${token}`,
            properties: { os: process.platform, browser: 'svcpp-local-client', device: 'svcpp-local-client' },
          });
        } else if (frame.op === OP.HEARTBEAT_ACK) {
          this.acks.shift()?.();
        } else if (frame.op === OP.HEARTBEAT) {
          this.beat();
        } else if (frame.op === OP.DISPATCH && frame.t) {
          if (frame.t === 'READY') resolve(frame.d as Record<string, unknown>);
          this.onDispatch({ t: frame.t, d: frame.d });
        }
      });
    });
    // Whoever awaits `ready` sees a failure; an unawaited rejection must not end the process.
    this.ready.catch(() => undefined);
  }

  /** Connects to the gateway URL the platform announces (`GET /gateway`) and identifies. */
  static open(gatewayUrl: string, token: string, onDispatch: (dispatch: Dispatch) => void): GatewaySession {
    const url = new URL(gatewayUrl);
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    return new GatewaySession(new WebSocket(url), token, onDispatch);
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * Op 3, then a heartbeat whose ACK comes back only after the gateway handled everything sent before it: when this
   * resolves, the presence is the platform's (friends have been sent it).
   */
  async setPresence(activity: Record<string, unknown> | null): Promise<void> {
    this.send(OP.PRESENCE_UPDATE, {
      since: null,
      activities: activity ? [activity] : [],
      status: 'online',
      afk: false,
    });
    await new Promise<void>((resolve) => this.beat(resolve));
  }

  /** A heartbeat; `acked` runs with its ACK (ACKs come in order, so each is matched with its heartbeat). */
  private beat(acked: () => void = () => undefined): void {
    if (this.socket.readyState !== WebSocket.OPEN) return acked();
    this.acks.push(acked);
    this.send(OP.HEARTBEAT, this.seq);
  }

  close(): Promise<unknown> {
    this.closedByUs = true;
    if (this.socket.readyState === WebSocket.CONNECTING || this.socket.readyState === WebSocket.OPEN)
      this.socket.close(1000);
    return this.gone;
  }

  private send(op: number, d: unknown): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ op, d }));
  }
}
