/**
 * A replicated log for unit tests of the multi-node pieces (PROTOCOL.md "Several nodes"): fake nodes share one
 * stream; appends queue up, and `deliver` hands the entries to the nodes in the stream's order when the test says
 * so — to every node, or to one node only, so that another lags behind as a slow reader of the Redis stream would.
 */
import {
  ChannelHandlers,
  type ClusterLog,
  type LogHandler,
  type LogSubscription,
} from '../../src/events/cluster-log.js';

export class SharedStream {
  private readonly entries: Array<{ node: string; channel: string; payload: unknown }> = [];
  private readonly nodes: FakeNodeLog[] = [];

  node(name: string): FakeNodeLog {
    const log = new FakeNodeLog(name, this);
    this.nodes.push(log);
    return log;
  }

  push(node: string, channel: string, payload: unknown): void {
    // Through JSON, as through Redis: nothing but data crosses.
    this.entries.push({ node, channel, payload: JSON.parse(JSON.stringify(payload)) });
  }

  /** Every entry not yet handled by `only` (default: by each node), in order; entries appended meanwhile too. */
  deliver(only?: FakeNodeLog): void {
    const nodes = only ? [only] : this.nodes;
    for (let i = Math.min(...nodes.map((node) => node.cursor)); i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      for (const node of nodes) {
        if (node.cursor !== i) continue;
        node.cursor++;
        node.handlers.run(entry.channel, entry.payload, entry.node === node.nodeId, false);
      }
    }
  }
}

export class FakeNodeLog implements ClusterLog {
  readonly distributed = true;
  readonly handlers = new ChannelHandlers();
  /** Index of the next entry this node handles. */
  cursor = 0;
  constructor(
    readonly nodeId: string,
    private readonly stream: SharedStream,
  ) {}
  append(channel: string, payload: unknown): void {
    this.stream.push(this.nodeId, channel, payload);
  }
  on<T>(channel: string, handler: LogHandler<T>, options?: LogSubscription): () => void {
    return this.handlers.add(channel, handler, options);
  }
  async start(): Promise<void> {}
  async close(): Promise<void> {}
}
