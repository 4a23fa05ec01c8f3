/**
 * The platform's replicated log: the one ordered sequence of entries that every node of a deployment consumes in
 * the same order. Without a broker there is one node and the log is in-process: an append runs every handler at
 * once, synchronously, so a single node behaves exactly as before the log existed. With a broker
 * (events/redis-log.ts) an append goes to a Redis stream and every node — the appending one included — runs its
 * handlers when it reads the entry back, in stream order (platform/PROTOCOL.md "Several nodes").
 *
 * Entries are grouped in channels (bus dispatches, gateway sessions, presence). A handler learns whether its node
 * appended the entry (`origin`): state is applied on every node, side effects (publishing derived events, database
 * writes) only on the origin, so each happens once in the deployment.
 */
import { randomBytes } from 'node:crypto';

/**
 * `origin`: this node appended the entry. `fromHistory`: appended before this node started (replayed to rebuild
 * state; no session of this node can be waiting for what it causes).
 */
export type LogHandler<T = unknown> = (payload: T, origin: boolean, fromHistory: boolean) => void;

export interface LogSubscription {
  /**
   * Also run for entries appended before this node started (a broker keeps history): channels whose handlers
   * rebuild state (who has a session, presence) need it; channels of one-off events (dispatches) must not.
   */
  history?: boolean;
}

export interface ClusterLog {
  /** This node's id (random per start): the `origin` of the entries it appends. */
  readonly nodeId: string;
  /** True when entries travel through a broker (asynchronous delivery, several nodes). */
  readonly distributed: boolean;
  append(channel: string, payload: unknown): void;
  on<T>(channel: string, handler: LogHandler<T>, options?: LogSubscription): () => void;
  /**
   * Starts delivering, once every area has subscribed (nothing read before would reach them); resolves when the
   * history is handled, so the node knows the deployment's sessions and presence before it serves anyone.
   */
  start(): Promise<void>;
  /** Waits until this node's own entries were delivered back (broker), then stops reading. */
  close(): Promise<void>;
}

/**
 * The `nodes` channel: a node of the deployment is gone (its liveness key expired: killed, frozen or cut off from the
 * broker — events/node-liveness.ts). Every node drops what the dead node held (its gateway sessions, its voice
 * calls' participants) at this entry's place in the order; the appending node runs the side effects (presence, lobby
 * `connected`, voice states), once. Appended by whichever node noticed first; a second entry for the same node finds
 * nothing left to drop.
 */
export const NODES_CHANNEL = 'nodes';
export interface NodeDownEntry {
  op: 'down';
  node: string;
}

export function newNodeId(): string {
  return randomBytes(8).toString('hex');
}

/** Handlers per channel, shared by both logs. */
export class ChannelHandlers {
  private readonly byChannel = new Map<string, Array<{ handler: LogHandler; history: boolean }>>();

  add<T>(channel: string, handler: LogHandler<T>, options: LogSubscription = {}): () => void {
    const entry = { handler: handler as LogHandler, history: options.history ?? false };
    this.byChannel.set(channel, [...(this.byChannel.get(channel) ?? []), entry]);
    return () => {
      this.byChannel.set(
        channel,
        (this.byChannel.get(channel) ?? []).filter((e) => e !== entry),
      );
    };
  }

  /**
   * Runs every handler of the channel (a snapshot, so one that unsubscribes mid-delivery skips nobody) and returns
   * the errors thrown: every handler still sees the entry when an earlier one fails.
   */
  run(channel: string, payload: unknown, origin: boolean, fromHistory: boolean): unknown[] {
    const errors: unknown[] = [];
    for (const { handler, history } of this.byChannel.get(channel) ?? []) {
      if (fromHistory && !history) continue;
      try {
        handler(payload, origin, fromHistory);
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }
}

/** One node, no broker: an append is delivered before it returns, and handler errors reach the appender. */
export class InProcessLog implements ClusterLog {
  readonly nodeId = newNodeId();
  readonly distributed = false;
  private readonly handlers = new ChannelHandlers();

  append(channel: string, payload: unknown): void {
    const errors = this.handlers.run(channel, payload, true, false);
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} handlers failed for a ${channel} entry`);
  }

  on<T>(channel: string, handler: LogHandler<T>, options?: LogSubscription): () => void {
    return this.handlers.add(channel, handler, options);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {}
}
