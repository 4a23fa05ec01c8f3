/**
 * The baseline the SDK's gateway benchmarks are compared against: the least a pure-TypeScript client must do to hold
 * a user session — Hello, a heartbeat timer, Identify, and JSON.parse of every frame (that parse is the honest
 * per-message work any JavaScript client pays). Deliberately no resume, no reconnect, no zombie detection and no
 * compression: those belong to a real client, and leaving them out makes the baseline a lower bound on cost.
 */
import { WebSocket, type RawData } from 'ws';

export interface BaselineGatewayOptions {
  /** `ws(s)://host:port/gateway` — the query (`?v=10&encoding=json`) is appended here. */
  gatewayUrl: string;
  /** A user access token (sent as `Bearer <token>`). */
  token: string;
  /** Extra CA (PEM) to trust for `wss://`, e.g. a local platform's self-signed certificate. */
  ca?: string;
  /** Called for every dispatch (op 0), READY included, in order. */
  onDispatch?: (t: string, d: unknown, s: number) => void;
}

interface Frame {
  op: number;
  d: unknown;
  s?: number | null;
  t?: string | null;
}

export interface GatewayClosed {
  code: number;
  reason: string;
}

export class BaselineGatewayClient {
  /** READY's `d`; rejects if the socket fails or closes first. */
  readonly ready: Promise<Record<string, unknown>>;
  /** Settles when the socket has closed, for whatever reason. */
  readonly closed: Promise<GatewayClosed>;
  /** Latest sequence number received; sent with every heartbeat. */
  seq: number | null = null;
  private readonly ws: WebSocket;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: BaselineGatewayOptions) {
    // No permessage-deflate: the platform does not negotiate it, and offering it would only add handshake work.
    this.ws = new WebSocket(`${options.gatewayUrl}?v=10&encoding=json`, {
      perMessageDeflate: false,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    let readyCallbacks!: { resolve: (d: Record<string, unknown>) => void; reject: (error: Error) => void };
    this.ready = new Promise((resolve, reject) => (readyCallbacks = { resolve, reject }));
    // Callers that only await `closed` must not see an unhandled rejection for a READY that never came.
    this.ready.catch(() => undefined);
    this.closed = new Promise((resolve) => {
      this.ws.on('close', (code, reason) => {
        clearInterval(this.heartbeat);
        readyCallbacks.reject(new Error(`gateway closed before READY: ${code} ${reason.toString()}`));
        resolve({ code, reason: reason.toString() });
      });
    });
    this.ws.on('error', (error) => readyCallbacks.reject(error));
    this.ws.on('message', (data: RawData) =>
      this.onFrame(JSON.parse(data.toString()) as Frame, readyCallbacks.resolve),
    );
  }

  private onFrame(frame: Frame, resolveReady: (d: Record<string, unknown>) => void): void {
    switch (frame.op) {
      case 0:
        this.seq = frame.s ?? this.seq;
        if (frame.t === 'READY') resolveReady(frame.d as Record<string, unknown>);
        this.options.onDispatch?.(frame.t!, frame.d, frame.s!);
        break;
      case 1: // The server asks for a heartbeat now.
        this.sendHeartbeat();
        break;
      case 10: {
        const { heartbeat_interval: interval } = frame.d as { heartbeat_interval: number };
        this.heartbeat = setInterval(() => this.sendHeartbeat(), interval);
        this.send({
          op: 2,
          d: {
            token: `Bearer ${this.options.token}`,
            properties: { os: 'linux', browser: 'svcpp-baseline', device: 'svcpp-baseline' },
          },
        });
        break;
      }
      // 11 (heartbeat ACK) needs nothing; 7 and 9 would need resume logic, which the baseline does not have.
    }
  }

  private sendHeartbeat(): void {
    this.send({ op: 1, d: this.seq });
  }

  private send(payload: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(payload));
  }

  /** Closes with 1000 (ending the session) and waits for the socket to close. */
  close(): Promise<GatewayClosed> {
    clearInterval(this.heartbeat);
    if (this.ws.readyState === WebSocket.CONNECTING || this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    return this.closed;
  }
}
