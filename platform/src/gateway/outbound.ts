/**
 * How a connection's frames reach its socket: plain JSON text, `zlib-stream` transport compression, or per-payload
 * zlib (Identify `compress: true`). Sending is fire-and-forget; `flushed()` lets a close wait for frames that
 * are still in the compressor so that e.g. op 7 always precedes the close frame.
 */
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import type { WebSocket } from 'ws';
import { corkUntilNextTick } from './tick-cork.js';
import { ZlibStreamDeflater } from './zlib-stream.js';

export interface Outbound {
  send(frame: Buffer): void;
  flushed(): Promise<void>;
  close(): void;
}

const OPEN = 1;

export class PlainOutbound implements Outbound {
  constructor(
    private readonly ws: WebSocket,
    /** The TCP/TLS socket under ws, corked per tick so bursts leave in one write. */
    private readonly socket: Duplex,
  ) {}

  send(frame: Buffer): void {
    if (this.ws.readyState !== OPEN) return;
    corkUntilNextTick(this.socket);
    this.ws.send(frame, { binary: false });
  }

  flushed(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}

export class ZlibStreamOutbound implements Outbound {
  private readonly deflater: ZlibStreamDeflater;

  constructor(ws: WebSocket, socket: Duplex, onError: (error: Error) => void) {
    this.deflater = new ZlibStreamDeflater((message) => {
      if (ws.readyState !== OPEN) return;
      corkUntilNextTick(socket);
      ws.send(message, { binary: true });
    }, onError);
  }

  send(frame: Buffer): void {
    this.deflater.push(frame);
  }

  flushed(): Promise<void> {
    return this.deflater.idle();
  }

  close(): void {
    this.deflater.close();
  }
}

/** Each frame is its own complete zlib stream (RFC 1950), sent as a binary message. */
export class PayloadZlibOutbound implements Outbound {
  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
  ) {}

  send(frame: Buffer): void {
    if (this.ws.readyState !== OPEN) return;
    corkUntilNextTick(this.socket);
    this.ws.send(zlib.deflateSync(frame), { binary: true });
  }

  flushed(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}
