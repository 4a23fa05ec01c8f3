/**
 * The platform's one internal event bus. Feature code publishes gateway events here and never talks to sockets;
 * the gateway (and, later, anything else that cares) subscribes. Delivery is synchronous and in publish order, so
 * a publisher that writes to the database and then publishes gets its events out in commit order.
 */

/** Who an event is for. Present criteria are combined with AND; an empty audience reaches nobody. */
export interface EventAudience {
  /** Only sessions of these users (an empty list matches nobody). */
  userIds?: string[];
  /** Only sessions identified for this application (user sessions and the application's bot). */
  applicationId?: string;
  /** Every session (still narrowed by the other criteria when they are present). */
  all?: boolean;
  /** Only bot sessions whose Identify intents include every one of these bits (guild events, PROTOCOL.md §14.3). */
  intent?: number;
  /** …and none of these (MESSAGE_CONTENT blanking sends one payload with the bit and one without). */
  withoutIntent?: number;
}

export interface BusEvent {
  /** Dispatch name, UPPER_SNAKE_CASE (PROTOCOL-gateway.md "Sequence numbers and dispatch routing"). */
  t: string;
  /** Dispatch payload; serialised to JSON once per publish by the gateway. */
  d: unknown;
  to: EventAudience;
}

export type BusSubscriber = (event: BusEvent) => void;

const EVENT_NAME = /^[A-Z][A-Z0-9_]*$/;

export class EventBus {
  private subscribers: BusSubscriber[] = [];

  publish(event: BusEvent): void {
    // A malformed name would reach clients as-is; catching it here points at the publisher, not at a socket.
    if (!EVENT_NAME.test(event.t)) throw new TypeError(`event name must be UPPER_SNAKE_CASE, got ${JSON.stringify(event.t)}`);
    const errors: unknown[] = [];
    // Iterate over a snapshot so a subscriber that unsubscribes (or subscribes) mid-publish cannot skip anyone.
    for (const fn of this.subscribers.slice()) {
      try {
        fn(event);
      } catch (error) {
        errors.push(error);
      }
    }
    // Every subscriber still got the event; the publisher learns that one of them failed.
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} event subscribers failed for ${event.t}`);
  }

  subscribe(fn: BusSubscriber): () => void {
    this.subscribers.push(fn);
    return () => {
      this.subscribers = this.subscribers.filter((s) => s !== fn);
    };
  }
}
