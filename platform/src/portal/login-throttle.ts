/** Failed sign-ins allowed per client address and window before the form refuses to check more. */
export const LOGIN_FAILURES_PER_WINDOW = 10;
export const LOGIN_WINDOW_SECONDS = 60;

/**
 * Slows password guessing: after LOGIN_FAILURES_PER_WINDOW failures from one address the login form answers 429
 * until the window (started by the first failure) ends. A success does not reset the count (it cannot be used to
 * launder guesses between successes). Windows follow the platform clock.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { startedAt: number; count: number }>();

  constructor(private readonly now: () => number) {}

  private window(address: string): { startedAt: number; count: number } | undefined {
    const window = this.failures.get(address);
    if (window && this.now() - window.startedAt >= LOGIN_WINDOW_SECONDS * 1000) {
      this.failures.delete(address);
      return undefined;
    }
    return window;
  }

  blocked(address: string): boolean {
    return (this.window(address)?.count ?? 0) >= LOGIN_FAILURES_PER_WINDOW;
  }

  failed(address: string): void {
    const window = this.window(address);
    if (window) window.count++;
    else this.failures.set(address, { startedAt: this.now(), count: 1 });
  }
}
