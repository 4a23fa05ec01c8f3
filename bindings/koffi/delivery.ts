// Deferred delivery: the JS functions of callbacks delivered during a native call run once the outermost such call
// has returned. koffi runs a callback on the native call's stack: JS that calls back into the library from there (an
// SDK call inside an event handler) overflowed koffi's stack and killed the process ("Maximum call stack size
// exceeded"). Deferring the JS function — after its borrowed arguments were converted — means user code never runs
// inside a native frame, so a handler may call anything, including the pump itself. Exceptions must not cross the
// C ABI either: the first one a callback throws is kept and rethrown once the call has returned.

export class DeferredDelivery {
  /** The functions waiting for the outermost native call to return, in delivery order. */
  private readonly deferred: Array<(() => void) | undefined> = [];
  /** The next entry of `deferred` to run (see runDeferred). */
  private deferredHead = 0;
  private pumpDepth = 0;
  /** First exception thrown by a JS callback during the current pump; rethrown when the pump returns. */
  private callbackError: { error: unknown } | undefined;

  /** Runs fn(...args) now, or after the pump that is running returns. */
  deliver<A extends unknown[]>(fn: (...args: A) => unknown, ...args: A): void {
    if (this.pumpDepth > 0) this.deferred.push(() => void fn(...args));
    else fn(...args);
  }

  /** Queues fn to run after the pump that is running returns (an event record's function: always during a drain). */
  defer(fn: () => void): void {
    this.deferred.push(fn);
  }

  /** Makes a native call that may run callbacks; their JS functions run after it, in delivery order. */
  pumping<T>(call: () => T): T {
    this.pumpDepth += 1;
    try {
      return call();
    } finally {
      this.pumpDepth -= 1;
      if (this.pumpDepth === 0) this.runDeferred();
    }
  }

  /** Keeps the first exception a callback threw (the native frame it ran in must not see it). */
  recordError(error: unknown): void {
    this.callbackError ??= { error };
  }

  /** Rethrows the first exception a JS callback threw during the pump that just returned. */
  rethrowCallbackError(): void {
    const pending = this.callbackError;
    this.callbackError = undefined;
    if (pending) throw pending.error;
  }

  /** Where the queue ends now: what is queued from here on can be taken out again (takeSince). */
  mark(): number {
    return this.deferred.length;
  }

  /** Takes out the functions queued since `mark` (undefined when none), to be put back later with requeue. */
  takeSince(mark: number): Array<(() => void) | undefined> | undefined {
    return this.deferred.length > mark ? this.deferred.splice(mark) : undefined;
  }

  /** Appends functions taken out with takeSince, in their order. */
  requeue(functions: Array<(() => void) | undefined>): void {
    for (const fn of functions) this.deferred.push(fn);
  }

  private runDeferred(): void {
    // A function may pump again: its own deliveries join the end of this queue and the nested runDeferred carries
    // on from the shared head, so the order holds. An index walk, not shift(): shift() of a long array moves every
    // element, which cost ~9 µs per event when one pump delivered 20,000 (bench/gateway.ts).
    const queue = this.deferred;
    while (this.deferredHead < queue.length) {
      const next = queue[this.deferredHead]!;
      queue[this.deferredHead] = undefined; // the closure and the arguments it holds are garbage once run
      this.deferredHead += 1;
      try {
        next();
      } catch (error) {
        this.recordError(error);
      }
    }
    queue.length = 0;
    this.deferredHead = 0;
  }
}
