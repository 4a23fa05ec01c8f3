import { describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { DispatchTemplate, opFrame } from '../../src/gateway/frames.js';
import { resolveOptions } from '../../src/gateway/options.js';
import { closeOutcome } from '../../src/gateway/protocol.js';
import { ReplayRing } from '../../src/gateway/replay-ring.js';
import { RateWindow } from '../../src/gateway/rate-window.js';

describe('EventBus', () => {
  it('delivers synchronously, in publish order, to every subscriber; unsubscribe stops delivery', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const off = bus.subscribe((e) => seen.push(`1:${e.t}`));
    bus.subscribe((e) => seen.push(`2:${e.t}`));
    bus.publish({ t: 'A', d: null, to: { all: true } });
    off();
    bus.publish({ t: 'B', d: null, to: { all: true } });
    expect(seen).toEqual(['1:A', '2:A', '2:B']);
  });

  it('still delivers to everyone when a subscriber throws, then rethrows to the publisher', () => {
    const bus = new EventBus();
    const later = vi.fn();
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe(later);
    expect(() => bus.publish({ t: 'A', d: 1, to: { all: true } })).toThrow('boom');
    expect(later).toHaveBeenCalledOnce();
    bus.subscribe(() => {
      throw new Error('again');
    });
    expect(() => bus.publish({ t: 'A', d: 1, to: { all: true } })).toThrow(AggregateError);
  });

  it.each(['', 'lower', 'Mixed_Case', 'WITH SPACE', '1LEADING_DIGIT', 'DASH-ED'])('rejects the event name %j', (t) => {
    expect(() => new EventBus().publish({ t, d: null, to: { all: true } })).toThrow(TypeError);
  });
});

describe('frames', () => {
  it('a dispatch template yields the same JSON as serialising the envelope per session', () => {
    const d = { text: 'ünïcödé 🎮', n: [1, 2, { x: null }] };
    const template = new DispatchTemplate('MESSAGE_CREATE', d);
    for (const seq of [1, 9, 10, 12345, 2 ** 40]) {
      expect(JSON.parse(template.frame(seq).toString('utf8'))).toEqual({ op: 0, t: 'MESSAGE_CREATE', d, s: seq });
    }
    expect(JSON.parse(new DispatchTemplate('RESUMED', undefined).frame(3).toString())).toEqual({
      op: 0,
      t: 'RESUMED',
      d: null,
      s: 3,
    });
  });

  it('non-dispatch frames have null s and t', () => {
    expect(JSON.parse(opFrame(10, { heartbeat_interval: 1 }).toString())).toEqual({
      op: 10,
      d: { heartbeat_interval: 1 },
      s: null,
      t: null,
    });
  });
});

describe('ReplayRing', () => {
  const t = (name: string) => new DispatchTemplate(name, null);

  it('numbers from firstSeq, replays after a seq in order, and forgets the oldest beyond capacity', () => {
    const ring = new ReplayRing(3, 2);
    expect([ring.firstSeq, ring.lastSeq]).toEqual([2, 1]);
    expect(ring.canReplayAfter(1)).toBe(true);
    expect(ring.canReplayAfter(0)).toBe(false);
    expect(['A', 'B', 'C', 'D', 'E'].map((n) => ring.push(t(n)))).toEqual([2, 3, 4, 5, 6]);
    expect([ring.firstSeq, ring.lastSeq]).toEqual([4, 6]);
    expect([...ring.after(3)].map(([s, x]) => [s, x.t])).toEqual([
      [4, 'C'],
      [5, 'D'],
      [6, 'E'],
    ]);
    expect([...ring.after(5)].map(([s]) => s)).toEqual([6]);
    expect([...ring.after(6)]).toEqual([]);
    expect(ring.canReplayAfter(3)).toBe(true);
    expect(ring.canReplayAfter(2)).toBe(false);
    expect(ring.canReplayAfter(7)).toBe(false);
  });
});

describe('RateWindow', () => {
  it('allows count events per window and reports the wait', () => {
    const w = new RateWindow(2, 1000);
    expect([w.take(0), w.take(10), w.take(400)]).toEqual([0, 0, 600]);
    expect(w.take(1000)).toBe(0);
  });
});

describe('close codes and options', () => {
  it('classifies the published close codes', () => {
    expect([4000, 4001, 4002, 4003, 4005, 4008].map(closeOutcome)).toEqual(Array(6).fill('resume'));
    expect([4007, 4009].map(closeOutcome)).toEqual(['new-session', 'new-session']);
    expect([4004, 4010, 4011, 4012, 4013, 4014].map(closeOutcome)).toEqual(Array(6).fill('terminal'));
  });

  it('rejects non-positive or fractional options', () => {
    expect(() => resolveOptions({ heartbeatIntervalMs: 0 })).toThrow(RangeError);
    expect(() => resolveOptions({ sendLimit: { count: 1.5, windowMs: 10 } })).toThrow(RangeError);
    expect(resolveOptions({}).maxPayloadBytes).toBe(4096);
  });
});
