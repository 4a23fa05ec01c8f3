/**
 * The gateway engine: accepts sockets, runs the per-connection protocol, owns the sessions and fans bus events
 * out to them. One shared sweeper timer handles heartbeat deadlines, identify deadlines and the resume window for
 * every connection, so a thousand sessions cost no timers of their own.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { BusEvent } from '../events/bus.js';
import { parseClientJson } from '../http/json-input.js';
import { ClusterSessions } from './cluster-sessions.js';
import {
  checkIdentify,
  checkRemoteResume,
  checkResume,
  parseHeartbeat,
  parsePresence,
  sessionIntents,
  type Refusal,
} from './commands.js';
import { Connection, type ConnectionParams } from './connection.js';
import {
  DispatchTemplate,
  HEARTBEAT_ACK_FRAME,
  HEARTBEAT_REQUEST_FRAME,
  INVALID_SESSION_FRAMES,
  RECONNECT_FRAME,
  opFrame,
} from './frames.js';
import { resolveOptions, type GatewayOptions } from './options.js';
import { PayloadZlibOutbound, PlainOutbound, ZlibStreamOutbound, type Outbound } from './outbound.js';
import { presenceUpdate } from './presence.js';
import { Close, Op, closeOutcome } from './protocol.js';
import { SessionRegistry } from './registry.js';
import { ReplayRing, type ReplayRingSnapshot } from './replay-ring.js';

/** A session of this server: attached to one of its connections. */
type Session = BaseSession<Connection>;
import { envelopeSchema, type Identify, type Presence } from './schemas.js';
import { newSession, Session as BaseSession } from './session.js';
import type {
  GatewayDeps,
  GatewayHandle,
  GatewayIdentity,
  GatewaySessionHandle,
  GatewayStats,
  SessionFilter,
  SessionsChange,
} from './types.js';

const RESUMED = new DispatchTemplate('RESUMED', null);
/** A user session's READY lists (PROTOCOL.md §20.3), empty until features fill them through readyExtras. */
const USER_READY_DEFAULTS = {
  lobbies: [],
  relationships: [],
  game_relationships: [],
  presences: [],
  private_channels: [],
};
/**
 * What the published READY of a bot carries besides its user and guilds: empty lists and settings that libraries
 * read without checking (one iterates `private_channels` and throws without it).
 */
const BOT_READY_DEFAULTS = {
  private_channels: [],
  relationships: [],
  presences: [],
  guild_join_requests: [],
  user_settings: {},
  session_type: 'normal',
};
/** Client opcodes of v10. Those not served yet (4, 8, 31, 43) get 4003 before Identify like any command, 4001 after. */
const KNOWN_CLIENT_OPS = new Set<number>([
  Op.Heartbeat,
  Op.Identify,
  Op.PresenceUpdate,
  Op.VoiceStateUpdate,
  Op.Resume,
  Op.RequestGuildMembers,
  31,
  43,
]);
const SHUTDOWN_GRACE_MS = 2000;
/** Unsent bytes queued for one connection beyond which it is treated as dead (slow consumer). */
const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

export class GatewayServer implements GatewayHandle {
  readonly options: GatewayOptions;
  private readonly registry = new SessionRegistry<Session>();
  private readonly connections = new Set<Connection>();
  private readonly detached = new Set<Session>();
  /** Identifies per application in the current 24 h window, reported by GET /gateway/bot. */
  private readonly identifies = new Map<string, { since: number; count: number }>();
  private readonly unsubscribe: () => void;
  /** Sessions of every node (one node: exactly this registry's); the presence query and cross-node resume. */
  private readonly cluster: ClusterSessions;
  /** Resumes waiting for another node to hand their session over, by session id. */
  private readonly awaitingHandover = new Map<string, { conn: Connection; d: unknown }>();
  private readonly sweeper: NodeJS.Timeout;
  private closed: Promise<void> | null = null;

  constructor(private readonly deps: GatewayDeps) {
    this.options = resolveOptions(deps.options);
    this.unsubscribe = deps.bus.subscribe((event) => this.deliver(event));
    this.cluster = new ClusterSessions(deps.bus.log, {
      pairChanged: (change, origin) => this.sessionsChanged(change, origin),
      handOver: (id) => this.handOver(id),
      claimed: (id, record) => this.claimed(id, record.identity, record.intents),
      claimFailed: (id) => this.handoverFailed(id),
      ringArrived: (id, ring) => this.ringArrived(id, ring),
      disconnectUser: (userId, closeCode) => this.disconnectLocalUser(userId, closeCode),
      lostOwnSessions: (ids) => this.lostOwnSessions(ids),
    });
    // Resolution of a quarter of the grace period bounds how late a deadline is noticed.
    const tick = Math.max(10, Math.min(1000, Math.floor(this.options.heartbeatGraceMs / 4)));
    this.sweeper = setInterval(() => this.sweep(), tick);
    this.sweeper.unref();
  }

  // ── connections ───────────────────────────────────────────────────────────────────────────────────────────

  accept(ws: WebSocket, socket: Duplex, params: ConnectionParams): void {
    if (this.closed) {
      ws.close(Close.GoingAway, 'Server shutting down.');
      return;
    }
    const outbound: Outbound = params.zlibStream
      ? new ZlibStreamOutbound(ws, socket, (error) => this.onOutboundError(conn, error))
      : new PlainOutbound(ws, socket);
    const conn = new Connection(ws, socket, outbound, params, Date.now(), {
      send: this.options.sendLimit,
      presence: this.options.presenceLimit,
    });
    this.connections.add(conn);
    ws.on('message', (data, isBinary) => this.onMessage(conn, data as Buffer, isBinary));
    ws.on('close', (code) => this.onSocketClose(conn, code));
    conn.send(opFrame(Op.Hello, { heartbeat_interval: this.options.heartbeatIntervalMs }));
  }

  private onOutboundError(conn: Connection, error: Error): void {
    this.deps.logger.error({ err: error }, 'gateway compression failed');
    this.closeConnection(conn, Close.UnknownError, 'Unknown error.');
  }

  private onMessage(conn: Connection, data: Buffer, _isBinary: boolean): void {
    if (conn.closing) return;
    if (conn.sendLimit.take(Date.now()) > 0)
      return this.closeConnection(conn, Close.RateLimited, 'You are being rate limited.');
    if (data.length > this.options.maxPayloadBytes)
      return this.closeConnection(conn, Close.DecodeError, 'Payload too large.');
    // The one reading of outside JSON (http/json-input.ts): bad JSON or nesting past its depth limit is a decode
    // error; a string that is not valid Unicode (an escaped unpaired surrogate) would be stored and relayed to other
    // clients, whose strict parsers reject the whole frame, so it is refused like any invalid payload of a known op.
    const read = parseClientJson(data.toString('utf8'));
    if (!read.ok && read.problem === 'invalid-json')
      return this.closeConnection(conn, Close.DecodeError, 'Error while decoding payload.');
    const envelope = envelopeSchema.safeParse(read.value);
    if (!envelope.success) return this.closeConnection(conn, Close.DecodeError, 'Error while decoding payload.');
    const { op, d } = envelope.data;
    if (!KNOWN_CLIENT_OPS.has(op)) return this.closeConnection(conn, Close.UnknownOpcode, 'Unknown opcode.');
    if (!read.ok) return this.closeConnection(conn, Close.UnknownOpcode, 'Invalid payload: unpaired surrogate.');
    if (op === Op.Heartbeat) return this.onHeartbeat(conn, d);
    if (op === Op.Identify) return this.onIdentify(conn, d);
    if (op === Op.Resume) return this.onResume(conn, d);
    if (!conn.session) return this.closeConnection(conn, Close.NotAuthenticated, 'Not authenticated.');
    if (op === Op.PresenceUpdate) return this.onPresence(conn, conn.session, d);
    const outcome = this.deps.command?.({ op, d, session: this.handle(conn.session) }) ?? false;
    if (outcome === true) return;
    return this.closeConnection(
      conn,
      Close.UnknownOpcode,
      outcome === 'invalid' ? 'Invalid payload.' : 'Unknown opcode.',
    );
  }

  private onSocketClose(conn: Connection, code: number): void {
    this.connections.delete(conn);
    conn.outbound.close();
    if (conn.awaitingHandover !== null && this.awaitingHandover.get(conn.awaitingHandover)?.conn === conn)
      this.awaitingHandover.delete(conn.awaitingHandover);
    const session = conn.session;
    if (!session || conn.closing) return;
    // A client closing with 1000/1001 ends its session; any other code or a drop keeps it resumable
    // (PROTOCOL.md §20.6).
    if (code === Close.Normal || code === Close.GoingAway) this.destroy(session);
    else this.detach(session);
  }

  /** Closes with a code and settles the session at once, so dispatches from now on are buffered, not sent. */
  private closeConnection(conn: Connection, code: number, reason: string): void {
    if (conn.closing) return;
    const session = conn.session;
    if (session) {
      if (closeOutcome(code) === 'resume') this.detach(session);
      else this.destroy(session);
    }
    conn.close(code, reason);
  }

  private refuse(conn: Connection, refusal: Refusal): void {
    this.closeConnection(conn, refusal.close, refusal.reason);
  }

  // ── commands ──────────────────────────────────────────────────────────────────────────────────────────────

  private onHeartbeat(conn: Connection, d: unknown): void {
    const parsed = parseHeartbeat(d);
    if ('close' in parsed) return this.refuse(conn, parsed);
    conn.lastHeartbeatAt = Date.now();
    conn.heartbeatRequested = false;
    conn.send(HEARTBEAT_ACK_FRAME);
  }

  private onIdentify(conn: Connection, d: unknown): void {
    if (conn.session || conn.awaitingHandover !== null)
      return this.closeConnection(conn, Close.AlreadyAuthenticated, 'Already authenticated.');
    const checked = checkIdentify(d, (token) => this.deps.authenticate(token));
    if ('close' in checked) return this.refuse(conn, checked);
    const { identity, identify } = checked;
    this.countIdentify(identity.applicationId);
    // Transport compression wins over per-payload compression (they are mutually exclusive).
    if (identify.compress === true && !conn.params.zlibStream)
      conn.outbound = new PayloadZlibOutbound(conn.ws, conn.socket);
    const session = newSession<Connection>(identity, this.options.replayBufferSize);
    session.intents = sessionIntents(identify, identity, conn.params.version);
    this.registry.add(session);
    this.attach(session, conn);
    // First session of the pair anywhere → sessionsChanged (at once on one node; when the entry comes back with a
    // broker). Identify's presence follows both READY and that change, so it never reaches anyone before "online".
    let steps = identify.presence ? 2 : 0;
    const presenceStep = () => {
      if (--steps === 0 && conn.session === session) this.publishPresence(conn, identity, identify.presence!);
    };
    this.cluster.opened(session.id, identity, session.intents, identify.presence ? presenceStep : undefined);
    conn.send(new DispatchTemplate('READY', this.readyPayload(conn, session, identify)).frame(1));
    this.deps.identified?.(this.handle(session));
    this.deps.logger.debug(
      { sessionId: session.id, userId: identity.userId, kind: identity.kind },
      'gateway session identified',
    );
    if (identify.presence) presenceStep();
  }

  private readyPayload(conn: Connection, session: Session, identify: Identify): Record<string, unknown> {
    const identity = session.identity;
    const kindDefaults = identity.kind === 'user' ? USER_READY_DEFAULTS : BOT_READY_DEFAULTS;
    return {
      v: conn.params.version,
      user: identity.user,
      guilds: [],
      ...structuredClone(kindDefaults),
      ...(identify.shard && { shard: identify.shard }),
      ...this.deps.readyExtras?.(identity),
      session_id: session.id,
      resume_gateway_url: conn.params.gatewayUrl,
      application: { id: identity.applicationId, flags: identity.applicationFlags ?? 0 },
    };
  }

  /** The feature-facing view of a session (GatewaySessionHandle). */
  private handle(session: Session): GatewaySessionHandle {
    return {
      id: session.id,
      identity: session.identity,
      intents: session.intents,
      dispatch: (t, d) => session.dispatch(new DispatchTemplate(t, d)),
    };
  }

  private onResume(conn: Connection, d: unknown): void {
    if (conn.session || conn.awaitingHandover !== null)
      return this.closeConnection(conn, Close.AlreadyAuthenticated, 'Already authenticated.');
    // A session another node holds: claim it; the resume continues when its ring arrives (ringArrived).
    const remoteId = checkRemoteResume(
      d,
      (token) => this.deps.authenticate(token),
      (id) => (this.registry.get(id) ? undefined : this.cluster.remote(id)),
    );
    if (remoteId !== null) {
      conn.awaitingHandover = remoteId;
      this.awaitingHandover.set(remoteId, { conn, d });
      this.cluster.claim(remoteId);
      return;
    }
    this.resumeHere(conn, d);
  }

  /** Resume of a session this node holds (checkResume's rules). */
  private resumeHere(conn: Connection, d: unknown): void {
    const decision = checkResume(
      d,
      (token) => this.deps.authenticate(token),
      (id) => this.registry.get(id),
    );
    if ('close' in decision) {
      if (decision.destroy) this.destroy(decision.destroy);
      return this.refuse(conn, decision);
    }
    if ('invalidSession' in decision) {
      if (decision.destroy) this.destroy(decision.destroy);
      conn.send(INVALID_SESSION_FRAMES.false);
      return;
    }
    const { resume: session, seq } = decision;
    // The old connection is a zombie the client has given up on; cut it without a close frame.
    if (session.connection) {
      const old = session.connection;
      this.detach(session);
      old.drop();
    }
    this.attach(session, conn);
    for (const [s, template] of session.ring.after(seq)) conn.send(template.frame(s));
    session.dispatch(RESUMED);
  }

  private onPresence(conn: Connection, session: Session, d: unknown): void {
    const parsed = parsePresence(d);
    if ('close' in parsed) return this.refuse(conn, parsed);
    const waitMs = conn.presenceLimit.take(Date.now());
    if (waitMs > 0) {
      // Like the published op 8 limit, an over-limit presence is answered with RATE_LIMITED instead of a close.
      session.dispatch(
        new DispatchTemplate('RATE_LIMITED', { opcode: Op.PresenceUpdate, retry_after: waitMs / 1000, meta: {} }),
      );
      return;
    }
    this.publishPresence(conn, session.identity, parsed.presence);
  }

  private publishPresence(conn: Connection, identity: GatewayIdentity, presence: Presence): void {
    if (identity.kind === 'user') {
      const outcome = this.deps.userPresence?.(identity, presence);
      if (outcome === 'invalid') return this.closeConnection(conn, Close.UnknownOpcode, 'Invalid presence payload.');
      if (outcome) return;
    }
    this.deps.bus.publish({
      t: 'PRESENCE_UPDATE',
      d: presenceUpdate(identity, presence, Date.now()),
      to: { applicationId: identity.applicationId },
    });
  }

  // ── sessions ──────────────────────────────────────────────────────────────────────────────────────────────

  private attach(session: Session, conn: Connection): void {
    session.connection = conn;
    session.missed = 0;
    conn.session = session;
    conn.authenticated = true;
    this.detached.delete(session);
  }

  private detach(session: Session): void {
    const conn = session.connection;
    if (conn) conn.session = null;
    session.connection = null;
    session.detachedAt = Date.now();
    session.missed = 0;
    this.detached.add(session);
  }

  private destroy(session: Session): void {
    const conn = session.connection;
    if (conn) conn.session = null;
    session.connection = null;
    this.detached.delete(session);
    // Last session of the pair anywhere → sessionsChanged (ClusterSessions).
    if (this.registry.remove(session)) this.cluster.closed(session.id);
  }

  // ── sessions moving between nodes (resume on another node, PROTOCOL.md "Several nodes") ────────────────────

  /** Another node claimed one of this node's sessions: it leaves this node, its connection (a zombie) is cut. */
  private handOver(id: string): ReplayRingSnapshot | null {
    const session = this.registry.get(id);
    if (!session) return null;
    const conn = session.connection;
    if (conn) conn.session = null;
    session.connection = null;
    this.detached.delete(session);
    // Removed without a `close` entry: the session lives on, on the other node.
    this.registry.remove(session);
    conn?.drop();
    return session.ring.snapshot();
  }

  /** This node claimed a session: it receives dispatches from now on, buffered until the old ring arrives. */
  private claimed(id: string, identity: GatewayIdentity, intents: number): void {
    const session = new BaseSession<Connection>(identity, new ReplayRing(this.options.replayBufferSize, 2), id);
    session.intents = intents;
    session.awaitingRing = [];
    this.registry.add(session);
  }

  private ringArrived(id: string, ring: ReplayRingSnapshot | null): void {
    const session = this.registry.get(id);
    if (!session?.awaitingRing) return;
    if (!ring) {
      // The old node no longer had it (ended there just before the claim; its `close` entry follows).
      this.registry.remove(session);
      return this.handoverFailed(id);
    }
    session.adoptRing(ReplayRing.fromSnapshot(this.options.replayBufferSize, ring));
    session.detachedAt = Date.now();
    this.detached.add(session);
    const waiting = this.awaitingHandover.get(id);
    this.awaitingHandover.delete(id);
    if (!waiting || waiting.conn.closing || !this.connections.has(waiting.conn)) return;
    waiting.conn.awaitingHandover = null;
    this.resumeHere(waiting.conn, waiting.d);
  }

  /** The claimed session exists nowhere any more: the client must identify anew, as for any unknown session. */
  private handoverFailed(id: string): void {
    const waiting = this.awaitingHandover.get(id);
    this.awaitingHandover.delete(id);
    if (!waiting || waiting.conn.closing) return;
    waiting.conn.awaitingHandover = null;
    waiting.conn.send(INVALID_SESSION_FRAMES.false);
  }

  private sessionsChanged(change: SessionsChange, origin: boolean): void {
    const hooks = origin ? [this.deps.sessionsObserved, this.deps.sessionsChanged] : [this.deps.sessionsObserved];
    for (const hook of hooks) {
      try {
        hook?.(change);
      } catch (error) {
        // A feature's failure must not break the session bookkeeping that called it.
        this.deps.logger.error({ err: error }, 'sessionsChanged hook failed');
      }
    }
  }

  /** Bus subscriber: serialise once, then one sequence number and one frame copy per target session. */
  private deliver(event: BusEvent): void {
    const targets = this.registry.audience(event.to);
    if (targets.length === 0) return;
    const template = new DispatchTemplate(event.t, event.d);
    const limit = this.options.replayBufferSize;
    for (const session of targets) {
      session.dispatch(template);
      const conn = session.connection;
      if (conn === null) {
        // Missed more than the ring holds: the first missed dispatch is gone, so a resume could not be complete.
        if (session.missed > limit) this.destroy(session);
      } else if (conn.socket.writableLength > MAX_UNSENT_BYTES) {
        // A reader this far behind would grow server memory without bound; drop it, it can resume from the ring.
        this.detach(session);
        conn.drop();
      }
    }
  }

  private countIdentify(applicationId: string): void {
    const now = Date.now();
    const entry = this.identifies.get(applicationId);
    if (!entry || now - entry.since >= DAY_MS) this.identifies.set(applicationId, { since: now, count: 1 });
    else entry.count++;
  }

  /** session_start_limit for GET /gateway/bot (reported only; see PROTOCOL.md §20.1). */
  sessionStartLimit(applicationId: string): {
    total: number;
    remaining: number;
    reset_after: number;
    max_concurrency: number;
  } {
    const total = this.options.sessionStartLimit;
    const entry = this.identifies.get(applicationId);
    const now = Date.now();
    if (!entry || now - entry.since >= DAY_MS) return { total, remaining: total, reset_after: 0, max_concurrency: 1 };
    return {
      total,
      remaining: Math.max(0, total - entry.count),
      reset_after: DAY_MS - (now - entry.since),
      max_concurrency: 1,
    };
  }

  // ── the shared timer ──────────────────────────────────────────────────────────────────────────────────────

  private sweep(): void {
    const now = Date.now();
    const { heartbeatIntervalMs: interval, heartbeatGraceMs: grace, resumeWindowMs } = this.options;
    for (const conn of this.connections) {
      if (conn.closing) continue;
      const silentFor = now - conn.lastHeartbeatAt;
      if (!conn.authenticated && silentFor > interval + grace) {
        // Hello was sent and no session followed: nothing to resume, so "start a new session" (4009).
        this.closeConnection(conn, Close.SessionTimedOut, 'Session timed out.');
      } else if (silentFor > interval + grace) {
        // A zombie: drop without a close frame; its session stays resumable
        // (PROTOCOL.md §20.5).
        if (conn.session) this.detach(conn.session);
        conn.drop();
      } else if (silentFor > interval + grace / 2 && !conn.heartbeatRequested) {
        conn.heartbeatRequested = true;
        conn.send(HEARTBEAT_REQUEST_FRAME);
      }
    }
    for (const session of this.detached) {
      if (now - session.detachedAt > resumeWindowMs) this.destroy(session);
    }
  }

  // ── GatewayHandle ─────────────────────────────────────────────────────────────────────────────────────────

  /** Whether the user holds a session (attached or resumable) for the application on any node. */
  hasSession(userId: string, applicationId: string): boolean {
    return this.cluster.hasSession(userId, applicationId);
  }

  /** Ends (or, for a resumable close code, detaches) the user's sessions on every node. */
  disconnectUser(userId: string, closeCode: number = Close.AuthenticationFailed): void {
    this.cluster.disconnectUser(userId, closeCode);
  }

  /**
   * The deployment declared this node down and dropped these sessions (cluster-sessions.ts): they end here without
   * a `close` entry, and their clients, closed with a resumable code, get op 9 on resuming and identify anew.
   */
  private lostOwnSessions(ids: string[]): void {
    this.deps.logger.error(
      { sessions: ids.length },
      'gateway: this node was declared down by the deployment (liveness key expired); its sessions end',
    );
    for (const id of ids) {
      const session = this.registry.get(id);
      if (!session) continue;
      const conn = session.connection;
      if (conn) conn.session = null;
      session.connection = null;
      this.detached.delete(session);
      this.registry.remove(session);
      if (conn) this.closeConnection(conn, Close.UnknownError, 'Session lost: reconnect.');
    }
  }

  private disconnectLocalUser(userId: string, closeCode: number): void {
    for (const session of this.registry.select({ userId })) {
      if (session.connection) this.closeConnection(session.connection, closeCode, 'Disconnected.');
      else if (closeOutcome(closeCode) !== 'resume') this.destroy(session);
    }
  }

  sessionCount(): number {
    return this.registry.size;
  }

  stats(): GatewayStats {
    return {
      connections: this.connections.size,
      attached: this.registry.size - this.detached.size,
      detached: this.detached.size,
    };
  }

  dropConnections(filter?: SessionFilter): void {
    for (const conn of this.connectionsFor(filter)) {
      if (conn.session) this.detach(conn.session);
      conn.drop();
    }
  }

  sendReconnect(filter?: SessionFilter): void {
    for (const conn of this.connectionsFor(filter)) {
      conn.send(RECONNECT_FRAME);
      this.closeConnection(conn, Close.UnknownError, 'Reconnect requested.');
    }
  }

  invalidateSessions(resumable: boolean, filter?: SessionFilter): void {
    for (const session of this.registry.select(filter)) {
      const conn = session.connection;
      // The socket stays open without a session: the client may Identify (false) or Resume (true) on it or anew.
      // An already detached session keeps its window and its count of missed dispatches.
      if (!resumable) this.destroy(session);
      else if (conn) this.detach(session);
      if (conn && !conn.closing) conn.send(INVALID_SESSION_FRAMES[resumable ? 'true' : 'false']);
    }
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    clearInterval(this.sweeper);
    this.unsubscribe();
    const sockets = [...this.connections].map(
      (conn) =>
        new Promise<void>((resolve) => {
          if (conn.ws.readyState === conn.ws.CLOSED) return resolve();
          conn.ws.once('close', () => resolve());
          conn.close(Close.GoingAway, 'Server shutting down.');
        }),
    );
    for (const session of [...this.registry.all()]) this.destroy(session);
    this.cluster.close();
    // A peer that never answers the close frame must not hold shutdown up.
    const timer = setTimeout(() => {
      for (const conn of this.connections) conn.drop();
    }, SHUTDOWN_GRACE_MS);
    await Promise.all(sockets);
    clearTimeout(timer);
  }

  /** Connections whose session matches; without a filter, every connection including unidentified ones. */
  private connectionsFor(filter: SessionFilter | undefined): Connection[] {
    if (!filter || Object.keys(filter).length === 0) return [...this.connections].filter((c) => !c.closing);
    return this.registry
      .select(filter)
      .map((s) => s.connection)
      .filter((c): c is Connection => c !== null && !c.closing);
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
