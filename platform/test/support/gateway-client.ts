/**
 * A minimal TypeScript client of the main gateway (PROTOCOL.md §20), used by the platform's tests and benchmarks
 * and as the reference the SDK's own client is checked against. It identifies, heartbeats with jitter, detects
 * zombied connections, resumes after drops, op 7 and resumable close codes, re-identifies after op 9 false, stops on
 * terminal close codes, and speaks `compress=zlib-stream`.
 *
 * Events: 'hello' (heartbeatInterval), 'ready' (d), 'resumed', 'dispatch' (t, d, s), 'invalidSession' (resumable),
 * 'reconnect', 'socketClose' (code, reason) for every socket, 'fatal' (code, reason) on a terminal close,
 * 'closed' once the client is finished, 'error' (Error).
 */
import { EventEmitter } from 'node:events';
import zlib from 'node:zlib';
import { WebSocket, type ClientOptions } from 'ws';
import { ZlibStreamInflater } from '../../src/gateway/zlib-stream.js';

export interface GatewayClientOptions {
  /** Gateway URL without query, e.g. the `url` of GET /api/v10/gateway. */
  url: string;
  /** `Bearer <access token>` for a user session, the bare bot token for a bot. */
  token: string;
  intents?: number;
  properties?: { os: string; browser: string; device: string };
  presence?: { since: number | null; activities: unknown[]; status: string; afk: boolean };
  /** Use `compress=zlib-stream` transport compression. */
  compress?: boolean;
  /** Resume or re-identify automatically after a drop, op 7, op 9 or a non-terminal close (default true). */
  autoReconnect?: boolean;
  /** Extra Identify fields (e.g. `shard`, `capabilities`). */
  identifyExtras?: Record<string, unknown>;
  /** Source of the first heartbeat's jitter in [0, 1) (default Math.random). */
  jitter?: () => number;
  /** Passed to `ws`, e.g. `{ ca }` to trust a development server's self-signed certificate. */
  wsOptions?: ClientOptions;
}

export interface GatewayPayload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** Close codes after which reconnecting cannot help (terminal: 4004, 4010–4014). */
export const TERMINAL_CLOSE_CODES: ReadonlySet<number> = new Set([4004, 4010, 4011, 4012, 4013, 4014]);
/** Close codes after which the session is gone but a new one may be identified. */
export const NEW_SESSION_CLOSE_CODES: ReadonlySet<number> = new Set([4007, 4009]);
/** The client closes with this when it wants to resume afterwards (any code but 1000/1001 keeps the session). */
const RESUMABLE_CLIENT_CLOSE = 4900;

export class GatewayClient extends EventEmitter {
  sessionId: string | null = null;
  /** Latest sequence received (keep the latest non-null `s`). */
  seq: number | null = null;
  resumeUrl: string | null = null;
  heartbeatInterval = 0;
  /** Heartbeats sent without an ACK yet; > 0 at the next beat means the connection is a zombie. */
  private unacked = 0;
  private ws: WebSocket | null = null;
  private inflater: ZlibStreamInflater | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private finished = false;
  private reconnectAttempts = 0;
  private readonly options: Required<Pick<GatewayClientOptions, 'autoReconnect' | 'jitter'>> & GatewayClientOptions;

  constructor(options: GatewayClientOptions) {
    super();
    this.options = { autoReconnect: true, jitter: Math.random, ...options };
  }

  /** Opens the connection; resolves with READY's `d`, rejects if the client closes before that. */
  connect(): Promise<Record<string, unknown>> {
    this.finished = false;
    return new Promise((resolve, reject) => {
      const onReady = (d: Record<string, unknown>) => {
        this.off('closed', onClosed);
        resolve(d);
      };
      const onClosed = (code: number, reason: string) => {
        this.off('ready', onReady);
        reject(new Error(`gateway closed before READY: ${code} ${reason}`));
      };
      this.once('ready', onReady);
      this.once('closed', onClosed);
      this.open(this.options.url);
    });
  }

  send(op: number, d: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ op, d }));
  }

  updatePresence(presence: NonNullable<GatewayClientOptions['presence']>): void {
    this.send(3, presence);
  }

  /** Ends the session (close 1000) and stops reconnecting. */
  close(code = 1000): Promise<void> {
    this.finished = true;
    this.stopHeartbeat();
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) {
      this.finish(code, '');
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      ws.once('close', () => resolve());
      ws.close(code);
    });
  }

  private open(baseUrl: string): void {
    const url = new URL(baseUrl);
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    if (this.options.compress) url.searchParams.set('compress', 'zlib-stream');
    const ws = new WebSocket(url, this.options.wsOptions);
    this.ws = ws;
    this.unacked = 0;
    this.inflater?.close();
    this.inflater = this.options.compress
      ? new ZlibStreamInflater(
          (text) => this.onText(ws, text),
          (error) => this.onProtocolError(ws, error),
        )
      : null;
    ws.on('message', (data: Buffer, isBinary) => {
      if (ws !== this.ws) return;
      if (!isBinary) return this.onText(ws, data.toString('utf8'));
      if (this.inflater) return this.inflater.push(data);
      // Per-payload compression: each binary message is a complete zlib stream.
      try {
        this.onText(ws, zlib.inflateSync(data).toString('utf8'));
      } catch (error) {
        this.onProtocolError(ws, error as Error);
      }
    });
    ws.on('close', (code, reason) => this.onSocketClose(ws, code, reason.toString()));
    // Socket errors are followed by 'close', which drives reconnection; report them only to those who listen.
    ws.on('error', (error) => {
      if (this.listenerCount('error') > 0) this.emit('error', error);
    });
  }

  private onProtocolError(ws: WebSocket, error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
    ws.close(RESUMABLE_CLIENT_CLOSE, 'decode error');
  }

  private onText(ws: WebSocket, text: string): void {
    if (ws !== this.ws) return;
    let payload: GatewayPayload;
    try {
      payload = JSON.parse(text) as GatewayPayload;
    } catch (error) {
      return this.onProtocolError(ws, error as Error);
    }
    this.emit('packet', payload);
    switch (payload.op) {
      case 0:
        return this.onDispatch(payload);
      case 1:
        // The server asks for a heartbeat now; answer without the zombie check (our own beat may be in flight).
        return this.send(1, this.seq);
      case 7:
        this.emit('reconnect');
        return void ws.close(RESUMABLE_CLIENT_CLOSE, 'reconnect requested');
      case 9:
        return this.onInvalidSession(ws, payload.d === true);
      case 10:
        return this.onHello((payload.d as { heartbeat_interval: number }).heartbeat_interval);
      case 11:
        this.unacked = 0;
        return;
    }
  }

  private onHello(interval: number): void {
    this.heartbeatInterval = interval;
    this.emit('hello', interval);
    this.stopHeartbeat();
    const first = setTimeout(() => {
      this.beat();
      this.heartbeatTimer = setInterval(() => this.beat(), interval);
      this.heartbeatTimer.unref();
    }, interval * this.options.jitter());
    first.unref();
    this.heartbeatTimer = first;
    if (this.sessionId && this.seq !== null)
      this.send(6, { token: this.options.token, session_id: this.sessionId, seq: this.seq });
    else this.identify();
  }

  private identify(): void {
    this.send(2, {
      token: this.options.token,
      properties: this.options.properties ?? {
        os: process.platform,
        browser: 'svcpp-reference-client',
        device: 'svcpp-reference-client',
      },
      ...(this.options.intents !== undefined && { intents: this.options.intents }),
      ...(this.options.presence && { presence: this.options.presence }),
      ...this.options.identifyExtras,
    });
  }

  private beat(): void {
    if (this.unacked > 0 && this.heartbeatInterval > 0 && this.heartbeatTimer) {
      // No ACK since the last beat: zombied connection. Close with a non-1000 code and resume.
      this.ws?.close(RESUMABLE_CLIENT_CLOSE, 'heartbeat not acknowledged');
      return;
    }
    this.unacked++;
    this.send(1, this.seq);
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  private onDispatch(payload: GatewayPayload): void {
    if (payload.s !== null) this.seq = payload.s;
    const d = payload.d as Record<string, unknown>;
    if (payload.t === 'READY') {
      this.sessionId = d.session_id as string;
      this.resumeUrl = d.resume_gateway_url as string;
      this.reconnectAttempts = 0;
      this.emit('ready', d);
    } else if (payload.t === 'RESUMED') {
      this.reconnectAttempts = 0;
      this.emit('resumed');
    }
    this.emit('dispatch', payload.t, d, payload.s);
  }

  private onInvalidSession(ws: WebSocket, resumable: boolean): void {
    this.emit('invalidSession', resumable);
    if (!this.options.autoReconnect) return;
    if (resumable) {
      ws.close(RESUMABLE_CLIENT_CLOSE, 'invalid session, resuming');
    } else {
      this.sessionId = null;
      this.seq = null;
      this.resumeUrl = null;
      this.identify();
    }
  }

  private onSocketClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.ws) return;
    this.stopHeartbeat();
    this.emit('socketClose', code, reason);
    if (this.finished) return this.finish(code, reason);
    if (TERMINAL_CLOSE_CODES.has(code)) {
      this.emit('fatal', code, reason);
      return this.finish(code, reason);
    }
    if (!this.options.autoReconnect) return this.finish(code, reason);
    if (NEW_SESSION_CLOSE_CODES.has(code)) {
      this.sessionId = null;
      this.seq = null;
      this.resumeUrl = null;
    }
    // Quick first retry, then a capped linear backoff so a flapping server is not hammered.
    const delay = Math.min(5000, 250 * this.reconnectAttempts++);
    const target = this.sessionId && this.resumeUrl ? this.resumeUrl : this.options.url;
    setTimeout(() => {
      if (!this.finished) this.open(target);
    }, delay);
  }

  private finish(code: number, reason: string): void {
    this.finished = true;
    this.inflater?.close();
    this.inflater = null;
    this.emit('closed', code, reason);
  }
}
