/**
 * One sender's DAVE frames as the platform's relay sees them (its relay tap), split by epoch. A DAVE frame ends with
 * the 8-byte truncated tag, the ULEB128 nonce, one byte giving the size of this supplemental data, and the 0xFAFA
 * marker (native/core/voice/e2ee/README.md). The SDK's frame cryptor starts its nonce again at 1 with each epoch's key,
 * so a nonce that does not grow marks the first frame the sender sealed in a new epoch: the relay can count exactly
 * what each sender sealed in each epoch without reading a frame.
 */

const TAG_BYTES = 8;
const MARKER = 0xfafa;

/** The frame's nonce, or null for a payload that is not a DAVE frame (the Opus silence frame sent in clear). */
export function daveNonce(payload: Buffer): number | null {
  if (payload.length < TAG_BYTES + 4 || payload.readUInt16BE(payload.length - 2) !== MARKER) return null;
  const supplemental = payload[payload.length - 3]!; // tag + nonce + this byte + the marker (Opus: no clear ranges)
  let at = payload.length - supplemental + TAG_BYTES;
  const end = payload.length - 3;
  let nonce = 0;
  for (let shift = 0; at < end; shift += 7) {
    const byte = payload[at++]!;
    nonce += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return nonce;
  }
  return null;
}

export class DaveSenderRuns {
  /** DAVE frames seen, in relay order. */
  frames = 0;
  /** The index (in `frames`) of the first frame of each epoch seen, oldest first. */
  readonly runStarts: number[] = [];
  #lastNonce = -1;

  add(payload: Buffer): void {
    const nonce = daveNonce(payload);
    if (nonce === null) return;
    if (nonce <= this.#lastNonce || this.runStarts.length === 0) this.runStarts.push(this.frames);
    this.#lastNonce = nonce;
    this.frames++;
  }

  /** Frames sealed from the first frame of the `run`-th epoch seen (0-based) until now; 0 before that epoch began. */
  framesSinceRun(run: number): number {
    const start = this.runStarts[run];
    return start === undefined ? 0 : this.frames - start;
  }
}
