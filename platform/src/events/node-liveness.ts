/**
 * Which nodes of a deployment are alive (broker only; PROTOCOL.md "Several nodes", "A node that dies").
 *
 * Each node holds a key `svcpp:node:<id>` with a time to live and refreshes it every heartbeat; a graceful stop
 * deletes it. On each heartbeat a node also checks the keys of the nodes it has seen appending to the log: a key that
 * is gone means that node was killed (kill -9, a crash, a machine lost), frozen or cut off from the broker for longer
 * than the time to live, and the node appends a `down` entry for it to the log's `nodes` channel. Every node then
 * drops, at that place in the order, what the dead node held (cluster-sessions.ts, voice/cluster-voice.ts).
 *
 * Why a key with a time to live and not Redis keyspace notifications: notifications need a server setting that
 * managed Redis services often do not allow, and they are pub/sub (lost while a node reconnects); a key checked by
 * every node needs nothing but SET/EXISTS, and several nodes noticing the same death only append the same entry twice.
 *
 * A node that was only frozen and finds itself declared down (its own `down` entry) has lost its sessions in every
 * other node's table: the gateway ends its connections so their clients come back as new sessions (gateway.ts).
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export const NODE_KEY_PREFIX = 'svcpp:node:';

export interface LivenessOptions {
  /** How long a node's key lives without a refresh: a node silent for longer is declared down. */
  ttlMs: number;
  /** How often a node refreshes its key and checks the others'. Well below ttlMs (a third or less). */
  heartbeatMs: number;
}

/** 15 s to notice a dead node; a node must miss about five heartbeats in a row to be declared down. */
export const DEFAULT_LIVENESS: LivenessOptions = { ttlMs: 15_000, heartbeatMs: 3_000 };

export class NodeLiveness {
  /** Nodes that appended to the log since their last `down` entry (or ever): the ones whose keys are checked. */
  private readonly watched = new Set<string>();
  /** `down` entries this node appended that have not come back yet: not appended twice meanwhile. */
  private readonly declared = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private beating = false;

  constructor(
    private readonly redis: Redis,
    private readonly nodeId: string,
    private readonly options: LivenessOptions,
    private readonly appendDown: (node: string) => void,
    private readonly logger: Logger,
  ) {
    if (!(options.heartbeatMs > 0) || !(options.ttlMs > options.heartbeatMs)) {
      throw new Error(
        `invalid node liveness: ttlMs (${options.ttlMs}) must exceed heartbeatMs (${options.heartbeatMs}) > 0`,
      );
    }
  }

  /** Sets this node's key; done before the node appends anything, so no other node can find it keyless. */
  async register(): Promise<void> {
    await this.redis.set(NODE_KEY_PREFIX + this.nodeId, String(Date.now()), 'PX', this.options.ttlMs);
  }

  start(): void {
    this.timer = setInterval(() => void this.beat(), this.options.heartbeatMs);
    this.timer.unref();
  }

  /** An entry appended by `node` was read: watch it (again, after a `down` entry, if it came back). */
  saw(node: string): void {
    if (node !== this.nodeId) this.watched.add(node);
  }

  /** A `down` entry for `node` was read. */
  wentDown(node: string): void {
    this.watched.delete(node);
    this.declared.delete(node);
  }

  /** Stops the heartbeat and deletes this node's key (a graceful stop: the node's own entries ended its sessions). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.del(NODE_KEY_PREFIX + this.nodeId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    if (this.beating) return; // a slow broker: one heartbeat at a time
    this.beating = true;
    try {
      await this.register();
      const nodes = [...this.watched];
      if (nodes.length === 0) return;
      const replies = (await this.redis.pipeline(nodes.map((node) => ['exists', NODE_KEY_PREFIX + node])).exec()) ?? [];
      nodes.forEach((node, i) => {
        const [error, exists] = replies[i] ?? [new Error('no reply'), 1];
        if (error || exists !== 0 || this.declared.has(node)) return;
        this.declared.add(node);
        this.logger.warn(
          { node },
          'broker: a node stopped refreshing its liveness key; its sessions and calls are dropped',
        );
        this.appendDown(node);
      });
    } catch (error) {
      // The broker is unreachable: nothing can be decided now. Our own key may expire meanwhile (see above).
      this.logger.warn({ err: error }, 'broker: the liveness heartbeat failed; retrying');
    } finally {
      this.beating = false;
    }
  }
}
