/**
 * Replay protection of one sender's media (PROTOCOL.md §13.4), the sliding window of SRTP (RFC 3711 §3.3.2) and
 * IPsec (RFC 4303 §3.4.3) over the transport nonce counter of the rtpsize AEAD modes: the 32-bit big-endian counter
 * every packet carries in its last 4 bytes, which clients raise by one per packet and which wraps at 2^32 (the SDK
 * starts at 0, discord.js at 1; both modes alike).
 *
 * Counters are read as 64-bit indexes (the counter plus 2^32 per wrap, guessed as the one nearest the newest index,
 * as SRTP guesses its rollover counter), so a wrap is just the next packet. The window remembers which of the last
 * `size` indexes were accepted: an index seen before is a replay, one older than the window is too old to tell,
 * one above the newest moves the window. `check` decides and changes nothing — a packet is checked before it is
 * decrypted (a replay costs no decryption) and `accept` is called only once it authenticated, so a forged packet
 * can never move the window.
 */

/** Packets of reordering tolerated (RFC 3711 asks for at least 64): 128 × 20 ms = 2.56 s of audio. */
export const REPLAY_WINDOW_PACKETS = 128;

const COUNTER_SPAN = 2 ** 32;

export type ReplayVerdict =
  /** Never seen, and newer than everything accepted so far (the first packet is one). */
  | { fresh: true; newest: true; index: number }
  /** Never seen, inside the window below the newest: a late (reordered) packet. */
  | { fresh: true; newest: false; index: number }
  /** Seen before, or older than the window. */
  | { fresh: false; reason: 'replayed' | 'too-old' };

export class ReplayWindow {
  /** Index of the newest accepted packet; -1 before the first. */
  private newest = -1;
  /** accepted[i % size]: whether index i was accepted, for the `size` indexes up to `newest`. */
  private readonly accepted: Uint8Array;

  constructor(readonly size = REPLAY_WINDOW_PACKETS) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('replay window size must be a positive integer');
    this.accepted = new Uint8Array(size);
  }

  /** What a packet carrying `counter` (0 … 2^32 − 1) would be; changes nothing. */
  check(counter: number): ReplayVerdict {
    if (this.newest < 0) return { fresh: true, newest: true, index: counter };
    // The distance from the newest counter as a signed 32-bit number: the index nearest the newest.
    const index = this.newest + ((counter - (this.newest % COUNTER_SPAN)) | 0);
    if (index > this.newest) return { fresh: true, newest: true, index };
    if (index < 0 || this.newest - index >= this.size) return { fresh: false, reason: 'too-old' };
    if (this.accepted[index % this.size]) return { fresh: false, reason: 'replayed' };
    return { fresh: true, newest: false, index };
  }

  /** Records a fresh verdict's index once its packet authenticated. */
  accept(verdict: ReplayVerdict & { fresh: true }): void {
    const { index } = verdict;
    if (index > this.newest) {
      // The window slides: the indexes it passes over were never seen.
      const first = Math.max(this.newest + 1, index - this.size + 1);
      for (let i = first; i < index; i++) this.accepted[i % this.size] = 0;
      this.newest = index;
    }
    this.accepted[index % this.size] = 1;
  }
}
