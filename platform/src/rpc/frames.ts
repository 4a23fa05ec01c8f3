/**
 * The IPC frame: `u32 LE opcode | u32 LE length | length bytes of UTF-8 JSON`. The reader accumulates socket
 * chunks and yields whole frames; a declared length above the cap is reported before its body is buffered, so a
 * peer cannot make the server hold a large frame in memory.
 */
import { MAX_FRAME_BYTES } from './codes.js';

export interface Frame {
  op: number;
  body: Buffer;
}

export type ReadResult = { frame: Frame } | { oversized: number } | undefined;

export function encodeFrame(op: number, payload: unknown): Buffer {
  return encodeRawFrame(op, Buffer.from(JSON.stringify(payload), 'utf8'));
}

/** A frame around bytes as they are (PONG echoes the PING's payload byte for byte). */
export function encodeRawFrame(op: number, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32LE(op, 0);
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly maxBytes = MAX_FRAME_BYTES) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
  }

  /** The next whole frame, `oversized` when the next header declares too much, undefined when more bytes are needed. */
  next(): ReadResult {
    if (this.buffered.length < 8) return undefined;
    const length = this.buffered.readUInt32LE(4);
    if (length > this.maxBytes) return { oversized: length };
    if (this.buffered.length < 8 + length) return undefined;
    const frame = { op: this.buffered.readUInt32LE(0), body: this.buffered.subarray(8, 8 + length) };
    this.buffered = this.buffered.subarray(8 + length);
    return { frame };
  }
}
