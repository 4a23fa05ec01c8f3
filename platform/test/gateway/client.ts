/**
 * A raw protocol client for tests: no automatic behaviour at all, every frame queued for the test to inspect, so
 * tests can assert exact opcodes and close codes. (The client in support/gateway-client.ts is the well-behaved one.)
 */
import zlib from 'node:zlib';
import { WebSocket } from 'ws';
import type { GatewayPayload } from '../support/gateway-client.js';

export type { GatewayPayload };

export interface Closed {
  code: number;
  reason: string;
}

const WAIT_MS = 5000;

export class RawClient {
  /** Binary frames as received (for compression tests). */
  readonly binaryFrames: Buffer[] = [];
  readonly closed: Promise<Closed>;
  private readonly queue: GatewayPayload[] = [];
  private waiter: (() => void) | null = null;
  private inflatedLength = 0;
  private isClosed = false;

  private constructor(
    readonly ws: WebSocket,
    private readonly zlibStream: boolean,
  ) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        this.waiter?.();
        resolve({ code, reason: reason.toString() });
      });
    });
    ws.on('error', () => {});
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        this.binaryFrames.push(data);
        this.push(this.zlibStream ? this.inflateStreamFrame() : zlib.inflateSync(data).toString('utf8'));
      } else {
        this.push(data.toString('utf8'));
      }
    });
  }

  /** Connects with the given query (default v=10, JSON); `ca` trusts a TLS platform's certificate. */
  static open(url: string, query = 'v=10&encoding=json', ca?: string): Promise<RawClient> {
    const ws = new WebSocket(`${url}?${query}`, ca ? { ca } : {});
    const client = new RawClient(ws, /compress=zlib-stream/.test(query));
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  /**
   * Independent of the server's code: inflate everything received so far with one synchronous call and keep the
   * new tail — quadratic, fine for tests, and it proves the frames form one continuous zlib stream.
   */
  private inflateStreamFrame(): string {
    const all = zlib.inflateSync(Buffer.concat(this.binaryFrames), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const text = all.subarray(this.inflatedLength).toString('utf8');
    this.inflatedLength = all.length;
    return text;
  }

  private push(text: string): void {
    this.queue.push(JSON.parse(text) as GatewayPayload);
    this.waiter?.();
  }

  /** The next frame; rejects if the socket closes first or nothing arrives in time. */
  async next(): Promise<GatewayPayload> {
    const deadline = Date.now() + WAIT_MS;
    while (this.queue.length === 0) {
      if (this.isClosed) throw new Error('socket closed while waiting for a frame');
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('timed out waiting for a frame');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
    return this.queue.shift()!;
  }

  /** Skips frames until one with this op (and event name, for dispatches) arrives. */
  async nextOf(op: number, t?: string): Promise<GatewayPayload> {
    for (;;) {
      const p = await this.next();
      if (p.op === op && (t === undefined || p.t === t)) return p;
    }
  }

  /** Frames already received and not yet consumed. */
  pending(): GatewayPayload[] {
    return [...this.queue];
  }

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Waits for Hello and identifies; returns READY. */
  async identify(token: string, extra: Record<string, unknown> = {}): Promise<GatewayPayload> {
    await this.nextOf(10);
    this.send(2, {
      token,
      properties: { os: 'linux', browser: 'test', device: 'test' },
      ...(token.startsWith('Bearer ') ? {} : { intents: 0 }),
      ...extra,
    });
    return this.nextOf(0, 'READY');
  }

  close(code = 1000): Promise<Closed> {
    if (!this.isClosed) this.ws.close(code);
    return this.closed;
  }

  /** Resolves when the server closes the socket (or the socket drops). */
  expectClose(): Promise<Closed> {
    return withTimeout(this.closed, 'socket close');
  }
}

export function withTimeout<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Resolves on the next emission of an event, with its arguments. */
export function once<A extends unknown[]>(
  emitter: { once(event: string, fn: (...args: A) => void): unknown },
  event: string,
): Promise<A> {
  return withTimeout(new Promise<A>((resolve) => emitter.once(event, (...args: A) => resolve(args))), `event ${event}`);
}
