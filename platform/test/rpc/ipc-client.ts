/** A raw IPC client for the local RPC tests: real Unix socket, frames in and out, nothing interpreted. */
import net from 'node:net';

export interface ReceivedFrame {
  op: number;
  body: any;
}

export class IpcClient {
  private buffered = Buffer.alloc(0);
  private readonly frames: ReceivedFrame[] = [];
  private waiter: (() => void) | undefined;
  private nonces = 0;
  /** Settles when the server closed the socket. */
  readonly ended: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 8) {
        const length = this.buffered.readUInt32LE(4);
        if (this.buffered.length < 8 + length) break;
        const op = this.buffered.readUInt32LE(0);
        const text = this.buffered.subarray(8, 8 + length).toString('utf8');
        this.buffered = this.buffered.subarray(8 + length);
        this.frames.push({ op, body: JSON.parse(text) });
      }
      this.wake();
    });
    this.ended = new Promise((resolve) => socket.on('close', () => resolve()));
    void this.ended.then(() => this.wake());
    socket.on('error', () => undefined);
  }

  static connect(path: string): Promise<IpcClient> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(path);
      socket.once('connect', () => resolve(new IpcClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Connects and handshakes; returns the client and its READY frame body. */
  static async ready(path: string, clientId: string): Promise<{ client: IpcClient; ready: ReceivedFrame['body'] }> {
    const client = await IpcClient.connect(path);
    client.sendJson(0, { v: 1, client_id: clientId });
    return { client, ready: (await client.next()).body };
  }

  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  sendJson(op: number, payload: unknown): void {
    const body = Buffer.from(JSON.stringify(payload));
    this.sendRaw(Buffer.concat([header(op, body.length), body]));
  }

  /** A command with a fresh nonce; resolves with the response carrying that nonce (events on the way are kept). */
  async request(cmd: string, args: unknown = {}, evt?: string): Promise<ReceivedFrame['body']> {
    const nonce = `n-${++this.nonces}`;
    this.sendJson(1, { cmd, args, nonce, ...(evt !== undefined && { evt }) });
    return this.nextMatching((frame) => frame.body?.nonce === nonce);
  }

  /** The next frame in arrival order; rejects when the socket closed with nothing left. */
  async next(): Promise<ReceivedFrame> {
    return this.take(() => 0);
  }

  /** The first frame (in arrival order) satisfying `match`; earlier frames stay queued. */
  async nextMatching(match: (frame: ReceivedFrame) => boolean): Promise<ReceivedFrame['body']> {
    return (await this.take(() => this.frames.findIndex(match))).body;
  }

  /** The next DISPATCH of `evt`. */
  event(evt: string): Promise<ReceivedFrame['body']> {
    return this.nextMatching((frame) => frame.body?.cmd === 'DISPATCH' && frame.body.evt === evt);
  }

  /** The frames still queued (received and not taken). */
  queued(): ReceivedFrame[] {
    return [...this.frames];
  }

  close(): Promise<void> {
    this.socket.end();
    return this.ended;
  }

  private async take(find: () => number): Promise<ReceivedFrame> {
    for (;;) {
      const index = find();
      if (index >= 0 && index < this.frames.length) return this.frames.splice(index, 1)[0]!;
      if (this.socket.destroyed || this.socket.readableEnded) throw new Error('socket closed');
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}

export function header(op: number, length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32LE(op, 0);
  out.writeUInt32LE(length, 4);
  return out;
}
