/**
 * The platform's one internal event bus. Feature code publishes gateway events here and never talks to sockets;
 * the gateway (and, later, anything else that cares) subscribes. Events travel on the replicated log's `dispatch`
 * channel: on one node delivery is synchronous and in publish order, so a publisher that writes to the database and
 * then publishes gets its events out in commit order; with a broker every node's subscribers receive every event of
 * every node in the one order of the broker's stream (platform/PROTOCOL.md "Several nodes").
 */
import { InProcessLog, type ClusterLog } from './cluster-log.js';

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
  /** Dispatch name, UPPER_SNAKE_CASE (PROTOCOL.md §20.4). */
  t: string;
  /** Dispatch payload; serialised to JSON once per publish by the gateway. */
  d: unknown;
  to: EventAudience;
}

export type BusSubscriber = (event: BusEvent) => void;

const EVENT_NAME = /^[A-Z][A-Z0-9_]*$/;

/** The log channel bus events travel on. */
const DISPATCH_CHANNEL = 'dispatch';

export class EventBus {
  /** This node's subscribers, for `deliverHere` (the log runs them for `publish`). */
  private readonly subscribers: BusSubscriber[] = [];

  /** The replicated log under the bus; other areas that must agree across nodes (sessions, presence) use it too. */
  constructor(readonly log: ClusterLog = new InProcessLog()) {}

  publish(event: BusEvent): void {
    checkName(event);
    // In-process: every subscriber still gets the event when one fails, and the publisher learns of the failure
    // (InProcessLog rethrows). With a broker the failure is logged on the node where it happened.
    this.log.append(DISPATCH_CHANNEL, event);
  }

  /**
   * Delivers to this node's subscribers at once, without the log: for an event that every node derives itself
   * while it applies a log entry (presence, lobby members' `connected`), so that the event takes that entry's place
   * in the one order on every node. Each node reaches only its own sessions, so every node must derive it.
   * Subscribers that fail do not stop the others; their errors are thrown afterwards, as the in-process log does.
   */
  deliverHere(event: BusEvent): void {
    checkName(event);
    const errors: unknown[] = [];
    for (const fn of [...this.subscribers]) {
      try {
        fn(event);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} subscribers failed for ${event.t}`);
  }

  /** Every event published on any node, in the one order (only events published after this node started). */
  subscribe(fn: BusSubscriber): () => void {
    this.subscribers.push(fn);
    const off = this.log.on<BusEvent>(DISPATCH_CHANNEL, (event) => fn(event));
    return () => {
      off();
      const index = this.subscribers.indexOf(fn);
      if (index >= 0) this.subscribers.splice(index, 1);
    };
  }
}

/** A malformed name would reach clients as-is; catching it here points at the publisher, not at a socket. */
function checkName(event: BusEvent): void {
  if (!EVENT_NAME.test(event.t))
    throw new TypeError(`event name must be UPPER_SNAKE_CASE, got ${JSON.stringify(event.t)}`);
}
