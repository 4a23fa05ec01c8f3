/**
 * A fixed-window counter: `count` events per `windowMs`, the window starting at the first event after the previous
 * one ended. Two numbers per limit, no timers — cheap enough to keep one per connection.
 */
export class RateWindow {
  private start = 0;
  private used = 0;

  constructor(
    private readonly count: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one event; returns 0 if allowed, otherwise the milliseconds until the window resets. */
  take(now: number): number {
    if (now - this.start >= this.windowMs) {
      this.start = now;
      this.used = 0;
    }
    if (this.used >= this.count) return this.windowMs - (now - this.start);
    this.used++;
    return 0;
  }
}
