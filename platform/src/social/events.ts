import type { PlatformKernel } from '../kernel.js';
import type { BusEvent } from '../events/bus.js';

/**
 * Dispatches produced inside a transaction, published only once it has committed: clients never hear about a
 * change that was rolled back, and they hear about committed ones in order.
 */
export class PendingEvents {
  private readonly events: BusEvent[] = [];

  add(event: BusEvent): void {
    this.events.push(event);
  }

  publish(ctx: PlatformKernel): void {
    for (const event of this.events.splice(0)) ctx.bus.publish(event);
  }
}

/** Runs `fn` in a transaction and publishes its events after the commit. */
export function transact<T>(ctx: PlatformKernel, fn: (events: PendingEvents) => T): T {
  const events = new PendingEvents();
  const result = ctx.store.transaction(() => fn(events));
  events.publish(ctx);
  return result;
}
