/**
 * The voice gateway v8 (PROTOCOL.md §13.3): its own WebSocket server on its own port (wss when the platform runs
 * TLS), so VOICE_SERVER_UPDATE's `endpoint` is a plain published `host:port`. It runs the per-connection protocol
 * (Hello, Identify → Ready, Select Protocol → Session Description, Speaking, heartbeats, Resume with buffered
 * replay), owns the voice sessions and feeds the UDP relay. Who may join which call is decided by calls.ts; this
 * file only checks the token it issued.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP } from 'node:net';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { TlsMaterial } from '../crypto/tls.js';
import { parseClientJson } from '../http/json-input.js';
import { NO_DAVE, type DaveExtension } from './dave.js';
import {
  ENCRYPTION_MODES,
  isDaveOp,
  isEncryptionMode,
  MAX_VOICE_VERSION,
  MIN_VOICE_VERSION,
  RECONNECTABLE_CLOSES,
  VoiceClose,
  VoiceOp,
} from './protocol.js';
import {
  heartbeatLegacySchema,
  heartbeatV8Schema,
  identifySchema,
  resumeSchema,
  selectProtocolSchema,
  speakingSchema,
  voiceEnvelopeSchema,
} from './schemas.js';
import { VoiceSession } from './session.js';
import type { UdpRelay } from './udp-relay.js';
import { voiceServerId, type VoiceState, type VoiceStates } from './voice-states.js';

export interface VoiceGatewayOptions {
  /** Sent in Hello. */
  heartbeatIntervalMs: number;
  /** How long a session whose socket was lost stays resumable (its participant stays in the call meanwhile). */
  resumeWindowMs: number;
  /** Sequenced messages kept per session for buffered resume. */
  resumeBufferSize: number;
  /** Largest client message in bytes (bigger ones are refused by ws with 1009). */
  maxPayloadBytes: number;
}

/** Which participants' voice sockets a dev drop cuts (dropConnections). */
export interface VoiceDropFilter {
  userId?: string;
  lobbyId?: string;
  /** Forget their voice sessions too (a Resume is then refused with 4006). */
  forget?: boolean;
}

export const DEFAULT_VOICE_GATEWAY_OPTIONS: VoiceGatewayOptions = {
  heartbeatIntervalMs: 13_750,
  resumeWindowMs: 60_000,
  resumeBufferSize: 1024,
  maxPayloadBytes: 64 * 1024,
};

export interface VoiceGatewayDeps {
  states: VoiceStates;
  relay: UdpRelay;
  /** Where clients send UDP (Ready `ip`, `port`). */
  mediaAddress(): { ip: string; port: number };
  /** The participant's call ended for good (terminal close or resume window over): calls.ts removes the state. */
  callEnded(state: VoiceState): void;
  logger: Logger;
  dave?: DaveExtension;
  options?: Partial<VoiceGatewayOptions>;
}

interface VoiceConnection {
  ws: WebSocket;
  version: number;
  session: VoiceSession | null;
  lastHeartbeatAt: number;
  closing: boolean;
}

export class VoiceGateway {
  readonly options: VoiceGatewayOptions;
  private server: Server | null = null;
  private wss: WebSocketServer | null = null;
  private readonly connections = new Set<VoiceConnection>();
  /** Voice sessions by the voice token of their state (one per participant). */
  private readonly sessions = new Map<string, VoiceSession>();
  private readonly detached = new Set<VoiceSession>();
  /**
   * Accepted resumes and the buffered messages they re-sent, and refused resumes (4006) (dev stats, §13.6: proves a
   * replay, or a fresh Identify after a refusal, happened).
   */
  readonly resumeStats = { resumes: 0, resumeReplayed: 0, resumesRefused: 0 };
  private readonly dave: DaveExtension;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly deps: VoiceGatewayDeps) {
    this.options = { ...DEFAULT_VOICE_GATEWAY_OPTIONS, ...deps.options };
    this.dave = deps.dave ?? NO_DAVE;
    this.dave.bind?.({
      refuse: (session, code, reason) => {
        const conn = session.ws ? this.connectionOf(session.ws) : undefined;
        if (conn && conn.session === session) this.closeConnection(conn, code, reason);
      },
    });
  }

  async listen(host: string, port: number, tls?: TlsMaterial): Promise<number> {
    const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }) : createHttpServer();
    // Plain HTTP requests get a 404; only upgrades are served.
    server.on('request', (_req, res) => res.writeHead(404).end());
    const wss = new WebSocketServer({ server, maxPayload: this.options.maxPayloadBytes });
    wss.on('connection', (ws, request) => this.accept(ws, request));
    this.server = server;
    this.wss = wss;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const sweepMs = Math.max(10, Math.min(1000, Math.floor(this.options.heartbeatIntervalMs / 4)));
    this.sweeper = setInterval(() => this.sweep(), sweepMs);
    this.sweeper.unref();
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const conn of this.connections) conn.ws.terminate();
    this.connections.clear();
    this.wss?.close();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  // ── participants (called by calls.ts and the dev hooks) ─────────────────────────────────────────────────

  /** The state left the call (op 4 leave, lobby left or deleted): its socket is closed with 4014, others told. */
  endFor(state: VoiceState, code: number = VoiceClose.Disconnected): void {
    const session = this.sessions.get(state.token);
    if (!session) return;
    const ws = session.ws;
    this.forget(session);
    if (ws) {
      const conn = this.connectionOf(ws);
      if (conn) conn.closing = true;
      ws.close(code, 'Disconnected.');
    }
  }

  /**
   * Drops the voice sockets of matching participants without a close frame (a network failure); they can resume.
   * With `forget` the sessions go too, as if the voice server had lost them (a restart): the voice states stay, a
   * Resume is refused with 4006 and the clients must Identify again.
   */
  dropConnections(filter: VoiceDropFilter): number {
    let dropped = 0;
    for (const session of [...this.sessions.values()]) {
      if (filter.userId !== undefined && session.userId !== filter.userId) continue;
      if (filter.lobbyId !== undefined && session.lobbyId !== filter.lobbyId) continue;
      const ws = session.ws;
      if (!ws) continue;
      this.detach(session);
      if (filter.forget) this.forget(session);
      ws.terminate();
      dropped++;
    }
    return dropped;
  }

  allSessions(): IterableIterator<VoiceSession> {
    return this.sessions.values();
  }

  /** Voice sessions of a call. */
  sessionsOf(lobbyId: string): VoiceSession[] {
    return [...this.sessions.values()].filter((s) => s.lobbyId === lobbyId);
  }

  // ── connections ─────────────────────────────────────────────────────────────────────────────────────────

  private accept(ws: WebSocket, request: IncomingMessage): void {
    const version = requestedVersion(request.url);
    if (version === null) {
      ws.close(
        VoiceClose.BadRequest,
        `Voice gateway version ${MIN_VOICE_VERSION}–${MAX_VOICE_VERSION} required (?v=8).`,
      );
      return;
    }
    const conn: VoiceConnection = { ws, version, session: null, lastHeartbeatAt: Date.now(), closing: false };
    this.connections.add(conn);
    ws.on('message', (data, isBinary) => this.onMessage(conn, toBuffer(data), isBinary));
    ws.on('close', () => this.onSocketClose(conn));
    ws.on('error', () => undefined);
    ws.send(JSON.stringify({ op: VoiceOp.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs } }));
  }

  private onMessage(conn: VoiceConnection, data: Buffer, isBinary: boolean): void {
    if (conn.closing) return;
    if (isBinary) return this.onBinary(conn, data);
    const read = parseClientJson(data.toString('utf8'));
    const envelope =
      read.ok || read.problem === 'invalid-unicode' ? voiceEnvelopeSchema.safeParse(read.value) : undefined;
    if (!envelope?.success) return this.closeConnection(conn, VoiceClose.DecodeError, 'Failed to decode payload.');
    // A string that is not text (an unpaired surrogate) is refused like every input of the platform (json-input.ts):
    // a malformed payload.
    if (!read.ok) return this.closeConnection(conn, VoiceClose.BadRequest, 'Invalid payload: unpaired surrogate.');
    const { op, d } = envelope.data;
    if (op === VoiceOp.Heartbeat) return this.onHeartbeat(conn, d);
    if (op === VoiceOp.Identify) return this.onIdentify(conn, d);
    if (op === VoiceOp.Resume) return this.onResume(conn, d);
    const session = conn.session;
    if (!session) return this.closeConnection(conn, VoiceClose.NotAuthenticated, 'Not authenticated.');
    if (op === VoiceOp.SelectProtocol) return this.onSelectProtocol(conn, session, d);
    if (op === VoiceOp.Speaking) return this.onSpeaking(conn, session, d);
    if (isDaveOp(op)) return this.onDave(conn, session, op, d);
    return this.closeConnection(conn, VoiceClose.UnknownOpcode, 'Unknown opcode.');
  }

  /** Client binary frames are `[u8 op][payload]` and exist only for DAVE. */
  private onBinary(conn: VoiceConnection, data: Buffer): void {
    const session = conn.session;
    if (!session) return this.closeConnection(conn, VoiceClose.NotAuthenticated, 'Not authenticated.');
    if (data.length < 1) return this.closeConnection(conn, VoiceClose.DecodeError, 'Failed to decode payload.');
    const op = data[0]!;
    if (!isDaveOp(op)) return this.closeConnection(conn, VoiceClose.UnknownOpcode, 'Unknown opcode.');
    this.onDave(conn, session, op, data.subarray(1));
  }

  private onSocketClose(conn: VoiceConnection): void {
    this.connections.delete(conn);
    const session = conn.session;
    conn.session = null;
    // The client went away (any code, or a network drop): its session waits to be resumed.
    if (session && session.ws === conn.ws && !conn.closing) this.detach(session);
  }

  /**
   * Closes with a code. After a reconnectable code the participant's voice state (and token) stays, so the client
   * may Identify again; after any other it leaves the call.
   */
  private closeConnection(conn: VoiceConnection, code: number, reason: string): void {
    if (conn.closing) return;
    conn.closing = true;
    const session = conn.session;
    conn.session = null;
    if (session) {
      this.deps.logger.debug({ userId: session.userId, lobbyId: session.lobbyId, code }, 'voice session closed');
      this.forget(session);
      if (!RECONNECTABLE_CLOSES.has(code)) this.deps.callEnded(session.state);
    }
    conn.ws.close(code, reason);
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────────────────────

  private onHeartbeat(conn: VoiceConnection, d: unknown): void {
    const now = Date.now();
    if (conn.version >= 8) {
      const parsed = heartbeatV8Schema.safeParse(d);
      if (!parsed.success) return this.closeConnection(conn, VoiceClose.BadRequest, 'Invalid heartbeat.');
      conn.lastHeartbeatAt = now;
      conn.ws.send(JSON.stringify({ op: VoiceOp.HeartbeatAck, d: { t: parsed.data.t } }));
    } else {
      const parsed = heartbeatLegacySchema.safeParse(d);
      if (!parsed.success) return this.closeConnection(conn, VoiceClose.BadRequest, 'Invalid heartbeat.');
      conn.lastHeartbeatAt = now;
      conn.ws.send(JSON.stringify({ op: VoiceOp.HeartbeatAck, d: parsed.data }));
    }
    if (conn.session) conn.session.lastHeartbeatAt = now;
  }

  private onIdentify(conn: VoiceConnection, d: unknown): void {
    if (conn.session) return this.closeConnection(conn, VoiceClose.AlreadyAuthenticated, 'Already authenticated.');
    const parsed = identifySchema.safeParse(d);
    if (!parsed.success) return this.closeConnection(conn, VoiceClose.BadRequest, 'Invalid identify payload.');
    const { server_id: serverId, user_id: userId, session_id: sessionId, token } = parsed.data;
    const state = this.deps.states.byVoiceToken(token);
    if (!state || voiceServerId(state) !== serverId || state.userId !== userId || state.sessionId !== sessionId) {
      return this.closeConnection(conn, VoiceClose.AuthenticationFailed, 'Authentication failed.');
    }
    // A second Identify for the same participant (a full reconnect): the old session is replaced.
    const old = this.sessions.get(token);
    if (old) {
      const oldWs = old.ws;
      this.forget(old);
      if (oldWs) {
        const oldConn = this.connectionOf(oldWs);
        if (oldConn) oldConn.closing = true;
        oldWs.close(VoiceClose.SessionNoLongerValid, 'Session replaced.');
      }
    }
    const session = new VoiceSession(state, this.deps.relay.allocateSsrc(), this.options.resumeBufferSize);
    session.maxDaveVersion = parsed.data.max_dave_protocol_version ?? 0;
    const refusal = this.dave.admit?.(session);
    if (typeof refusal === 'number') {
      // E.g. 4017: no unencrypted calls. Terminal: the participant leaves the call.
      this.closeConnection(conn, refusal, 'End-to-end encryption (DAVE) required.');
      if (!RECONNECTABLE_CLOSES.has(refusal)) this.deps.callEnded(state);
      return;
    }
    const others = this.sessionsOf(state.lobbyId);
    this.sessions.set(token, session);
    this.deps.relay.add(session);
    this.attach(session, conn);
    this.deps.logger.debug({ userId, lobbyId: state.lobbyId, ssrc: session.ssrc }, 'voice session identified');
    const media = this.deps.mediaAddress();
    session.send(VoiceOp.Ready, {
      ssrc: session.ssrc,
      ip: media.ip,
      port: media.port,
      modes: [...ENCRYPTION_MODES],
      heartbeat_interval: this.options.heartbeatIntervalMs,
    });
    // Who is already here, and their SSRCs (a receiver maps SSRC → user only from op 5).
    if (others.length > 0) session.send(VoiceOp.ClientsConnect, { user_ids: others.map((o) => o.userId) });
    for (const other of others)
      session.send(VoiceOp.Speaking, { user_id: other.userId, ssrc: other.ssrc, speaking: other.speaking });
    for (const other of others) other.send(VoiceOp.ClientsConnect, { user_ids: [state.userId] });
  }

  private onResume(conn: VoiceConnection, d: unknown): void {
    if (conn.session) return this.closeConnection(conn, VoiceClose.AlreadyAuthenticated, 'Already authenticated.');
    const parsed = resumeSchema.safeParse(d);
    if (!parsed.success) return this.closeConnection(conn, VoiceClose.BadRequest, 'Invalid resume payload.');
    const { server_id: serverId, session_id: sessionId, token, seq_ack: seqAck } = parsed.data;
    const state = this.deps.states.byVoiceToken(token);
    // A Resume that names no live voice session (unknown token, another server or session id, a session never
    // identified or already forgotten) has nothing to resume: 4006, as published, and the client Identifies again.
    // Credentials are judged by that Identify (4004); a mismatched Resume changes nothing.
    const session =
      state && voiceServerId(state) === serverId && state.sessionId === sessionId
        ? this.sessions.get(token)
        : undefined;
    const missed = session?.buffer.after(seqAck);
    if (!session || !missed) {
      // The buffer lost messages the client missed: this session cannot continue; its voice state stays.
      if (session) this.forget(session);
      this.resumeStats.resumesRefused++;
      return this.closeConnection(conn, VoiceClose.SessionNoLongerValid, 'Session no longer valid.');
    }
    if (session.ws) {
      // The old socket is a zombie the client has given up on.
      const oldConn = this.connectionOf(session.ws);
      if (oldConn) oldConn.closing = true;
      session.ws.terminate();
    }
    this.attach(session, conn);
    session.send(VoiceOp.Resumed, null);
    for (const message of missed) conn.ws.send(message.frame);
    this.resumeStats.resumes++;
    this.resumeStats.resumeReplayed += missed.length;
  }

  private onSelectProtocol(conn: VoiceConnection, session: VoiceSession, d: unknown): void {
    const parsed = selectProtocolSchema.safeParse(d);
    if (!parsed.success) return this.closeConnection(conn, VoiceClose.BadRequest, 'Invalid select protocol payload.');
    const { protocol, data } = parsed.data;
    if (protocol !== 'udp') return this.closeConnection(conn, VoiceClose.UnknownProtocol, 'Unknown protocol.');
    if (!isEncryptionMode(data.mode))
      return this.closeConnection(conn, VoiceClose.UnknownEncryptionMode, 'Unknown encryption mode.');
    const firstSelect = session.cipher === null;
    const key = session.selectMode(data.mode);
    // Media goes to the address the client announced (what IP discovery told it) until an authentic packet from
    // elsewhere moves it (udp-relay.ts).
    if (isIP(data.address) !== 0 && data.port > 0) session.udp = { address: data.address, port: data.port };
    session.send(VoiceOp.SessionDescription, {
      mode: data.mode,
      secret_key: [...key],
      dave_protocol_version: this.dave.negotiate(session, session.maxDaveVersion),
    });
    if (firstSelect)
      this.dave.joined(
        session,
        this.sessionsOf(session.lobbyId).filter((s) => s !== session),
      );
  }

  private onSpeaking(conn: VoiceConnection, session: VoiceSession, d: unknown): void {
    const parsed = speakingSchema.safeParse(d);
    if (!parsed.success) return this.closeConnection(conn, VoiceClose.BadRequest, 'Invalid speaking payload.');
    if (parsed.data.ssrc !== session.ssrc)
      return this.closeConnection(conn, VoiceClose.BadRequest, 'Speaking for an SSRC that is not yours.');
    session.speaking = parsed.data.speaking;
    for (const other of this.sessionsOf(session.lobbyId)) {
      if (other !== session)
        other.send(VoiceOp.Speaking, { user_id: session.userId, ssrc: session.ssrc, speaking: session.speaking });
    }
  }

  private onDave(conn: VoiceConnection, session: VoiceSession, op: number, payload: unknown): void {
    const refusal = this.dave.onClientOp(session, op, payload);
    if (typeof refusal === 'number') this.closeConnection(conn, refusal, 'DAVE payload refused.');
  }

  // ── sessions ────────────────────────────────────────────────────────────────────────────────────────────

  private attach(session: VoiceSession, conn: VoiceConnection): void {
    session.ws = conn.ws;
    session.version = conn.version;
    session.lastHeartbeatAt = Date.now();
    conn.session = session;
    this.detached.delete(session);
  }

  private detach(session: VoiceSession): void {
    const conn = session.ws ? this.connectionOf(session.ws) : undefined;
    if (conn) {
      conn.session = null;
      conn.closing = true;
    }
    session.ws = null;
    session.detachedAt = Date.now();
    this.detached.add(session);
  }

  /** Removes the session from the call's media and tells the others (op 13); the voice state is not touched. */
  private forget(session: VoiceSession): void {
    if (this.sessions.get(session.state.token) !== session) return;
    this.sessions.delete(session.state.token);
    this.detached.delete(session);
    this.deps.relay.remove(session);
    const others = this.sessionsOf(session.lobbyId);
    if (session.cipher) this.dave.left(session, others);
    for (const other of others) other.send(VoiceOp.ClientDisconnect, { user_id: session.userId });
  }

  private connectionOf(ws: WebSocket): VoiceConnection | undefined {
    for (const conn of this.connections) if (conn.ws === ws) return conn;
    return undefined;
  }

  private sweep(): void {
    const now = Date.now();
    const { heartbeatIntervalMs: interval, resumeWindowMs } = this.options;
    // Published clients give up after missing 3 ACKs; the server allows two intervals of silence.
    const deadline = interval * 2;
    for (const conn of [...this.connections]) {
      if (conn.closing || now - conn.lastHeartbeatAt <= deadline) continue;
      if (conn.session) {
        // A zombie: cut it without a close frame; its session stays resumable.
        this.detach(conn.session);
        conn.ws.terminate();
      } else this.closeConnection(conn, VoiceClose.SessionTimeout, 'Session timed out.');
    }
    for (const session of [...this.detached]) {
      if (now - session.detachedAt <= resumeWindowMs) continue;
      this.forget(session);
      this.deps.callEnded(session.state);
    }
  }
}

/** `?v=` as an integer in the served range, else null. */
function requestedVersion(url: string | undefined): number | null {
  const v = new URL(url ?? '/', 'http://voice.invalid').searchParams.get('v');
  if (v === null || !/^\d{1,2}$/.test(v)) return null;
  const version = Number(v);
  return version >= MIN_VOICE_VERSION && version <= MAX_VOICE_VERSION ? version : null;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
