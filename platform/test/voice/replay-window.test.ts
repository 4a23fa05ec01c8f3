/** The relay's replay window over a sender's transport nonce counter (src/voice/replay-window.ts), as a unit. */
import { describe, expect, it } from 'vitest';
import { REPLAY_WINDOW_PACKETS, ReplayWindow, type ReplayVerdict } from '../../src/voice/replay-window.js';

/** Checks and, when fresh, accepts (as the relay does once the packet authenticated); returns the verdict's gist. */
function offer(window: ReplayWindow, counter: number): string {
  const verdict: ReplayVerdict = window.check(counter);
  if (!verdict.fresh) return verdict.reason;
  window.accept(verdict);
  return verdict.newest ? 'newest' : 'late';
}

describe('replay window', () => {
  it('accepts each counter once, in order from 0 (the SDK) or 1 (discord.js); a repeat is a replay', () => {
    for (const start of [0, 1]) {
      const window = new ReplayWindow();
      for (let c = start; c < start + 300; c++) expect(offer(window, c)).toBe('newest');
      for (const c of [start + 299, start + 250, start + 172]) expect([c, offer(window, c)]).toEqual([c, 'replayed']);
    }
  });

  it('takes late packets inside the window once; older than the window is too old', () => {
    const window = new ReplayWindow();
    for (const c of [10, 12, 13]) expect(offer(window, c)).toBe('newest');
    expect(offer(window, 11)).toBe('late');
    expect(offer(window, 11)).toBe('replayed');
    expect(offer(window, 200)).toBe('newest');
    // 200 − 127 = 73 is the oldest index the window still tells apart.
    expect(offer(window, 73)).toBe('late');
    expect(offer(window, 72)).toBe('too-old');
    expect(offer(window, 13)).toBe('too-old');
    expect(REPLAY_WINDOW_PACKETS).toBe(128);
  });

  it('a counter below the first one accepted is too old, not a wrap', () => {
    const window = new ReplayWindow();
    expect(offer(window, 5)).toBe('newest');
    expect(offer(window, 2)).toBe('late');
    expect(offer(window, 0xfffffff0)).toBe('too-old');
  });

  it('the 32-bit counter wraps: 2^32 − 1 is followed by 0, and the window spans the wrap', () => {
    const window = new ReplayWindow();
    for (const c of [0xfffffffd, 0xfffffffe, 0xffffffff, 0, 1]) expect([c, offer(window, c)]).toEqual([c, 'newest']);
    expect(offer(window, 0xffffffff)).toBe('replayed');
    expect(offer(window, 0)).toBe('replayed');
    expect(offer(window, 0xfffffffc)).toBe('late');
    expect(offer(window, 2)).toBe('newest');
  });

  it('a jump ahead past the whole window forgets what it passed over; far behind the newest is too old', () => {
    const window = new ReplayWindow();
    for (let c = 0; c < 10; c++) offer(window, c);
    expect(offer(window, 1_000)).toBe('newest');
    expect(offer(window, 999)).toBe('late');
    expect(offer(window, 873)).toBe('late');
    expect(offer(window, 872)).toBe('too-old');
    expect(offer(window, 5)).toBe('too-old');
    // More than 2^31 ahead reads as behind (the nearest index): too old, never a new newest.
    expect(offer(window, (1_000 + 2 ** 31 + 1) >>> 0)).toBe('too-old');
  });

  it('check alone changes nothing: a packet that does not authenticate neither moves the window nor uses its counter', () => {
    const window = new ReplayWindow();
    offer(window, 7);
    expect(window.check(500)).toEqual({ fresh: true, newest: true, index: 500 });
    expect(window.check(500)).toEqual({ fresh: true, newest: true, index: 500 });
    expect(offer(window, 8)).toBe('newest');
    expect(offer(window, 6)).toBe('late');
  });

  it('refuses a size that is not a positive integer', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => new ReplayWindow(size)).toThrow(RangeError);
    const one = new ReplayWindow(1);
    expect([offer(one, 1), offer(one, 1), offer(one, 0), offer(one, 2)]).toEqual([
      'newest',
      'replayed',
      'too-old',
      'newest',
    ]);
  });
});
