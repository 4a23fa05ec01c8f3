/**
 * How a connection's frames reach its socket: plain JSON text, `zlib-stream` transport compression, or per-payload
 * zlib (Identify `compress: true`, §3.9). Sending is fire-and-forget; `flushed()` lets a close wait for frames that
 * are still in the compressor so that e.g. op 7 always precedes the close frame.
 */
import zlib from 'node:zlib';
import type { WebSocket } from 'ws';
import { ZlibStreamDeflater } from './zlib-stream.js';

export interface Outbound {
  send(frame: Buffer): void;
  flushed(): Promise<void>;
  close(): void;
}

const OPEN = 1;

export class PlainOutbound implements Outbound {
  constructor(private readonly ws: WebSocket) {}

  send(frame: Buffer): void {
    if (this.ws.readyState === OPEN) this.ws.send(frame, { binary: false });
  }

  flushed(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}

export class ZlibStreamOutbound implements Outbound {
  private readonly deflater: ZlibStreamDeflater;

  constructor(ws: WebSocket, onError: (error: Error) => void) {
    this.deflater = new ZlibStreamDeflater((message) => {
      if (ws.readyState === OPEN) ws.send(message, { binary: true });
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
  constructor(private readonly ws: WebSocket) {}

  send(frame: Buffer): void {
    if (this.ws.readyState === OPEN) this.ws.send(zlib.deflateSync(frame), { binary: true });
  }

  flushed(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}
