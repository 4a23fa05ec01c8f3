/**
 * Injected UDP loss for tests (PROTOCOL.md §13.4): each packet copy the relay would send is dropped with
 * probability `rate`. A seeded generator (mulberry32) makes a run's losses reproducible.
 */
export class LossInjector {
  private state: number;

  constructor(
    private rate = 0,
    seed = 0x5eed,
  ) {
    this.state = seed >>> 0;
    LossInjector.check(rate);
  }

  static check(rate: number): void {
    if (!(rate >= 0 && rate < 1)) throw new RangeError('loss rate must be in [0, 1)');
  }

  get lossRate(): number {
    return this.rate;
  }

  set(rate: number, seed?: number): void {
    LossInjector.check(rate);
    this.rate = rate;
    if (seed !== undefined) this.state = seed >>> 0;
  }

  /** true: drop this copy. */
  drop(): boolean {
    if (this.rate === 0) return false;
    return this.next() < this.rate;
  }

  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
