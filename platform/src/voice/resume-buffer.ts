/**
 * Buffered resume (voice gateway v8): every sequenced server message is kept here, so a client that resumes with
 * `seq_ack` gets everything after it again, in order. Wire sequence numbers are 16 bits and wrap (the binary
 * DAVE frames carry them as a u16 prefix, and JSON messages share the same counter); the buffer keeps an internal
 * running index so wrapping never confuses order.
 */

export interface BufferedMessage {
  seq: number;
  /** The frame exactly as sent (text JSON or binary). */
  frame: string | Buffer;
}

interface Entry extends BufferedMessage {
  n: number;
}

export const SEQ_MODULO = 0x10000;

export class ResumeBuffer {
  private readonly entries: Entry[] = [];
  /** Running index of the next message (1-based). */
  private next = 1;

  constructor(private readonly capacity: number) {}

  /** The wire sequence number the next message gets. */
  nextSeq(): number {
    return this.next % SEQ_MODULO;
  }

  /** The last wire sequence number handed out, -1 before the first. */
  lastSeq(): number {
    return this.next === 1 ? -1 : (this.next - 1) % SEQ_MODULO;
  }

  push(frame: string | Buffer): void {
    this.entries.push({ n: this.next, seq: this.next % SEQ_MODULO, frame });
    this.next++;
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  /**
   * Messages after `seqAck` (-1 or absent: after nothing), or null when some of them are no longer buffered or
   * the client claims a number never sent — the client must then do the full flow.
   */
  after(seqAck: number | undefined): BufferedMessage[] | null {
    const first = this.entries[0];
    if (seqAck === undefined || seqAck === -1) {
      if (this.next === 1) return [];
      return first?.n === 1 ? this.entries.slice() : null;
    }
    if (this.next === 1) return null;
    // The newest match wins: with a wrapped counter an older entry may carry the same number.
    for (let i = this.entries.length - 1; i >= 0; i--) {
      if (this.entries[i]!.seq === seqAck) return this.entries.slice(i + 1);
    }
    // Acknowledged exactly up to the message just before the oldest one kept: everything kept is still owed.
    if (first && (first.n - 1) % SEQ_MODULO === seqAck && first.n > 1) return this.entries.slice();
    return null;
  }
}
