/**
 * `compress=zlib-stream` (PROTOCOL.md §20.9): one zlib context per connection; every gateway message is
 * deflated into it and flushed with Z_SYNC_FLUSH, so each WebSocket message ends with 00 00 FF FF and the peer can
 * inflate it with its one long-lived inflate context.
 *
 * Node's streaming zlib is asynchronous. Like `ws` does for permessage-deflate, we push one message at a time and
 * take whatever the stream emitted once that message's flush completes, so messages never interleave and keep
 * their order. Both directions live here because the reference client needs the inflating side.
 */
import zlib from 'node:zlib';

export const SYNC_FLUSH_SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

type Transform = zlib.Deflate | zlib.Inflate;

/** Runs buffers one by one through a zlib transform, emitting each buffer's complete flushed output. */
class SerialZlib {
  private chunks: Buffer[] = [];
  private queue: Buffer[] = [];
  private queueHead = 0;
  private busy = false;
  private idleWaiters: Array<() => void> = [];
  private failed = false;

  constructor(
    private readonly stream: Transform,
    private readonly output: (data: Buffer) => void,
    private readonly onError: (error: Error) => void,
  ) {
    stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    stream.on('error', (error: Error) => {
      this.failed = true;
      this.onError(error);
      this.settleIdle();
    });
  }

  push(data: Buffer): void {
    if (this.failed) return;
    this.queue.push(data);
    if (!this.busy) this.next();
  }

  /** Resolves once everything pushed so far has been emitted. */
  idle(): Promise<void> {
    if (!this.busy || this.failed) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.failed = true;
    this.queue = [];
    this.stream.close();
    this.settleIdle();
  }

  private next(): void {
    if (this.failed) return;
    if (this.queueHead >= this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
      this.busy = false;
      this.settleIdle();
      return;
    }
    this.busy = true;
    const data = this.queue[this.queueHead++]!;
    this.stream.write(data);
    this.stream.flush(zlib.constants.Z_SYNC_FLUSH, () => {
      if (this.failed) return;
      const out = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.chunks = [];
      this.output(out);
      this.next();
    });
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

/** Server side: gateway message → one binary WebSocket message ending in 00 00 FF FF. */
export class ZlibStreamDeflater {
  private readonly serial: SerialZlib;

  constructor(output: (message: Buffer) => void, onError: (error: Error) => void) {
    this.serial = new SerialZlib(zlib.createDeflate(), output, onError);
  }

  push(message: Buffer): void {
    this.serial.push(message);
  }

  idle(): Promise<void> {
    return this.serial.idle();
  }

  close(): void {
    this.serial.close();
  }
}

/**
 * Client side: binary WebSocket messages → gateway message text. Buffers until the data ends with the sync-flush
 * suffix, as the published protocol prescribes, then inflates with the connection's one context.
 */
export class ZlibStreamInflater {
  private pending: Buffer[] = [];
  private readonly serial: SerialZlib;

  constructor(output: (text: string) => void, onError: (error: Error) => void) {
    this.serial = new SerialZlib(zlib.createInflate(), (data) => output(data.toString('utf8')), onError);
  }

  push(data: Buffer): void {
    this.pending.push(data);
    if (data.length < 4 || !data.subarray(data.length - 4).equals(SYNC_FLUSH_SUFFIX)) return;
    const message = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.serial.push(message);
  }

  close(): void {
    this.serial.close();
  }
}
