/**
 * The replicated log over Redis (`--broker redis://…`): one Redis stream is the deployment's single order. Each
 * node XADDs its entries to the stream and reads the whole stream back on a connection of its own (blocking
 * XREAD from the last id it saw), running its handlers entry by entry — its own entries included, so every node
 * sees every entry once and in the same order, whoever appended it. A reconnect resumes from the last id read, so
 * a broken connection neither loses nor repeats entries. Commands on one connection are executed in the order
 * they were sent, so a node's appends keep their order in the stream.
 *
 * Why a stream and not pub/sub: pub/sub drops what a subscriber misses while reconnecting and has no id to resume
 * from; a stream is the log itself (platform/README.md "Deployment").
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  ChannelHandlers,
  newNodeId,
  NODES_CHANNEL,
  type ClusterLog,
  type LogHandler,
  type LogSubscription,
  type NodeDownEntry,
} from './cluster-log.js';
import { DEFAULT_LIVENESS, NodeLiveness, type LivenessOptions } from './node-liveness.js';

/** The stream's key (a Redis database is one deployment; use the URL's database number to share a server). */
export const LOG_STREAM_KEY = 'svcpp:log';
/** Approximate length the stream is trimmed to: history a late-starting node replays (PROTOCOL.md "Several nodes"). */
export const DEFAULT_LOG_MAX_LENGTH = 100_000;
/** Entries read per XREAD. */
const READ_BATCH = 1000;
/** Longest close() waits for this node's last entries to come back before it stops reading anyway. */
const CLOSE_DRAIN_MS = 5000;

interface WireEntry {
  /** Appending node. */
  n: string;
  /** Channel. */
  c: string;
  /** Payload. */
  p: unknown;
}

/** Parses and checks a broker URL; the error says what is wrong (bad start-up option, not a connection failure). */
export function parseBrokerUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      `invalid broker URL ${JSON.stringify(redactUrl(url))}: ` +
        'expected redis://[user:password@]host[:port][/db] or rediss://…',
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(
      `unsupported broker URL scheme ${JSON.stringify(parsed.protocol)}: expected redis:// or rediss:// (TLS)`,
    );
  }
  if (!parsed.hostname) throw new Error('invalid broker URL: no host');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db))
    throw new Error(`invalid broker URL: database ${JSON.stringify(db)} is not a number`);
  return parsed;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split('-').map(BigInt) as [bigint, bigint];
  return am !== bm ? (am < bm ? -1 : 1) : as === bs ? 0 : as < bs ? -1 : 1;
}

export class RedisLog implements ClusterLog {
  readonly nodeId = newNodeId();
  readonly distributed = true;
  private readonly handlers = new ChannelHandlers();
  /** Last id read; the next XREAD continues after it. */
  private lastRead = '0-0';
  /** Newest id of the stream when this node started: entries up to it are history. */
  private startId = '0-0';
  private lastAppended = '0-0';
  private pendingAppends = 0;
  private stopping = false;
  private reading: Promise<void> = Promise.resolve();
  private closing: Promise<void> | null = null;
  private readonly caughtUp = new Set<() => void>();
  private readonly liveness: NodeLiveness;

  private constructor(
    private readonly writer: Redis,
    private readonly reader: Redis,
    private readonly logger: Logger,
    private readonly maxLength: number,
    livenessOptions: LivenessOptions,
  ) {
    this.liveness = new NodeLiveness(
      writer,
      this.nodeId,
      livenessOptions,
      (node) => this.append(NODES_CHANNEL, { op: 'down', node } satisfies NodeDownEntry),
      logger,
    );
  }

  /**
   * Connects, failing start-up clearly when the broker cannot be reached, and registers the node's liveness key;
   * start() then starts reading.
   */
  static async connect(
    url: string,
    logger: Logger,
    maxLength = DEFAULT_LOG_MAX_LENGTH,
    liveness: LivenessOptions = DEFAULT_LIVENESS,
  ): Promise<RedisLog> {
    parseBrokerUrl(url);
    const failures: Error[] = [];
    const clients = [newClient(url, logger, failures), newClient(url, logger, failures)] as const;
    try {
      await Promise.all(clients.map((client) => client.connect()));
    } catch (error) {
      clients.forEach((client) => client.disconnect());
      // The socket error (ECONNREFUSED, TLS, auth) says more than the client's "Connection is closed".
      const cause = failures[0] ?? error;
      throw new Error(
        `cannot reach the broker at ${redactUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause: error },
      );
    }
    const log = new RedisLog(clients[0], clients[1], logger, maxLength, liveness);
    await log.liveness.register();
    const newest = (await clients[0].xrevrange(LOG_STREAM_KEY, '+', '-', 'COUNT', 1))[0];
    log.startId = newest ? newest[0] : '0-0';
    return log;
  }

  start(): Promise<void> {
    this.reading = this.readLoop();
    this.liveness.start();
    return new Promise<void>((resolve) => {
      const check = (): void => {
        if (compareIds(this.lastRead, this.startId) < 0) return;
        this.caughtUp.delete(check);
        resolve();
      };
      this.caughtUp.add(check);
      check();
    });
  }

  append(channel: string, payload: unknown): void {
    const entry: WireEntry = { n: this.nodeId, c: channel, p: payload };
    this.pendingAppends++;
    this.writer
      .xadd(LOG_STREAM_KEY, 'MAXLEN', '~', String(this.maxLength), '*', 'e', JSON.stringify(entry))
      .then((id) => {
        if (id && compareIds(id, this.lastAppended) > 0) this.lastAppended = id;
      })
      .catch((error: unknown) =>
        this.logger.error({ err: error, channel }, 'broker: an entry could not be appended (lost)'),
      )
      .finally(() => {
        this.pendingAppends--;
        this.notifyCaughtUp();
      });
  }

  on<T>(channel: string, handler: LogHandler<T>, options?: LogSubscription): () => void {
    return this.handlers.add(channel, handler, options);
  }

  close(): Promise<void> {
    this.closing ??= this.drainAndStop();
    return this.closing;
  }

  private async drainAndStop(): Promise<void> {
    // The entries this node appended last (its sessions closing on shutdown) still reach the other nodes, and
    // their handlers run here before the store they may write to is closed.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, CLOSE_DRAIN_MS);
      const check = (): void => {
        if (this.pendingAppends === 0 && compareIds(this.lastRead, this.lastAppended) >= 0) done();
      };
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.caughtUp.add(check);
      check();
    });
    this.caughtUp.clear();
    await this.liveness.stop();
    this.stopping = true;
    this.reader.disconnect();
    await this.reading;
    await this.writer.quit().catch(() => this.writer.disconnect());
  }

  private notifyCaughtUp(): void {
    for (const check of [...this.caughtUp]) check();
  }

  private async readLoop(): Promise<void> {
    while (!this.stopping) {
      let reply: Array<[string, Array<[string, string[]]>]> | null;
      try {
        reply = (await this.reader.xread(
          'COUNT',
          READ_BATCH,
          'BLOCK',
          0,
          'STREAMS',
          LOG_STREAM_KEY,
          this.lastRead,
        )) as typeof reply;
      } catch (error) {
        if (this.stopping) return;
        // ioredis reconnects on its own; the next XREAD continues from lastRead.
        this.logger.warn({ err: error }, 'broker: reading the log failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) {
          this.lastRead = id;
          this.deliver(id, fields);
        }
      }
      this.notifyCaughtUp();
    }
  }

  private deliver(id: string, fields: string[]): void {
    const raw = fields[fields.indexOf('e') + 1];
    let entry: WireEntry;
    try {
      entry = JSON.parse(raw ?? '') as WireEntry;
    } catch {
      this.logger.error({ id }, 'broker: an unreadable log entry was skipped');
      return;
    }
    this.liveness.saw(entry.n);
    if (entry.c === NODES_CHANNEL && (entry.p as NodeDownEntry | null)?.op === 'down')
      this.liveness.wentDown((entry.p as NodeDownEntry).node);
    const errors = this.handlers.run(entry.c, entry.p, entry.n === this.nodeId, compareIds(id, this.startId) <= 0);
    for (const error of errors) this.logger.error({ err: error, channel: entry.c }, 'broker: a log handler failed');
  }
}

function newClient(url: string, logger: Logger, startFailures: Error[]): Redis {
  let ready = false;
  const client = new Redis(url, {
    lazyConnect: true,
    // Start-up fails at the first refused connection; once running, reconnect with a capped back-off.
    retryStrategy: (times) => (ready ? Math.min(times * 100, 2000) : null),
    // A blocked XREAD must not time out; commands wait in the offline queue while reconnecting.
    maxRetriesPerRequest: null,
    connectionName: 'svcpp-platform',
  });
  client.on('ready', () => {
    ready = true;
  });
  // Without a listener ioredis prints every connection error; the reconnect is logged once per failure instead.
  client.on('error', (error: Error) => {
    if (ready) logger.warn({ err: error }, 'broker connection error');
    else startFailures.push(error);
  });
  return client;
}
