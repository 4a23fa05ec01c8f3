/**
 * Server frames as bytes. A dispatch fanned out to many sessions differs only in its sequence number, so the
 * payload is serialised once into a shared prefix `{"op":0,"t":"…","d":…,"s":` and each session's frame is that
 * prefix, the decimal sequence and `}` — one memcpy per session instead of one JSON.stringify per session.
 */
import { Op } from './protocol.js';

export class DispatchTemplate {
  readonly prefix: Buffer;

  constructor(
    readonly t: string,
    d: unknown,
    /** An already serialised prefix (a replay ring handed over by another node); `d` is then ignored. */
    prefix?: string,
  ) {
    this.prefix = Buffer.from(prefix ?? `{"op":0,"t":${JSON.stringify(t)},"d":${JSON.stringify(d) ?? 'null'},"s":`);
  }

  /** The complete frame for one session. */
  frame(seq: number): Buffer {
    const digits = seq.toString();
    const out = Buffer.allocUnsafe(this.prefix.length + digits.length + 1);
    this.prefix.copy(out, 0);
    out.write(digits, this.prefix.length, 'latin1');
    out[out.length - 1] = 0x7d; // '}'
    return out;
  }
}

/** A non-dispatch frame (`s` and `t` are null for every op but 0). */
export function opFrame(op: number, d: unknown): Buffer {
  return Buffer.from(`{"op":${op},"d":${JSON.stringify(d) ?? 'null'},"s":null,"t":null}`);
}

export const HEARTBEAT_ACK_FRAME = opFrame(Op.HeartbeatAck, null);
export const HEARTBEAT_REQUEST_FRAME = opFrame(Op.Heartbeat, null);
export const RECONNECT_FRAME = opFrame(Op.Reconnect, null);
export const INVALID_SESSION_FRAMES = {
  true: opFrame(Op.InvalidSession, true),
  false: opFrame(Op.InvalidSession, false),
};
