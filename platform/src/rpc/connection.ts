/**
 * One game's connection to the local client: the frame state machine (PROTOCOL.md §12.2–12.3). HANDSHAKE first,
 * then FRAMEs carrying commands; PING is answered with PONG. What cannot be read as a stream (oversized frame,
 * unknown opcode, a second HANDSHAKE, a FRAME before the HANDSHAKE) ends the connection with a CLOSE frame; a FRAME
 * whose JSON or command is bad gets an ERROR response and the connection goes on. Nothing a peer sends can throw out
 * of here: the server keeps serving everyone else.
 */
import type net from 'node:net';
import { MAX_FRAME_BYTES, Op, RpcClose, RpcError } from './codes.js';
import { dottedPath, INVALID_UNICODE, parseClientJson } from '../http/json-input.js';
import { encodeFrame, encodeRawFrame, FrameReader, type Frame } from './frames.js';
import type { LinkApplication } from './link/platform-link.js';

/** A command failure answered as `{evt: "ERROR", data: {code, message}}`. */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CommandPayload {
  cmd: string;
  nonce: string | null;
  evt: string | undefined;
  args: Record<string, unknown>;
}

/** What the connection needs from the server it belongs to. */
export interface ConnectionHost {
  /** Validates the handshake's client id; undefined when unknown. */
  application(clientId: string): Promise<LinkApplication | undefined>;
  /** The game is in (its application's presence session is open); resolves with READY's payload. */
  opened(connection: RpcConnection): Promise<unknown>;
  closed(connection: RpcConnection): void;
  /** Runs a command; resolves with the response `data` (and `evt` for SUBSCRIBE/UNSUBSCRIBE). */
  command(connection: RpcConnection, payload: CommandPayload): Promise<{ data: unknown; evt?: string }>;
}

const NONCE_MAX = 64;

export class RpcConnection {
  /** Set by a valid handshake. */
  app: LinkApplication | undefined;
  /** Set by AUTHENTICATE (the token is kept for what the game may ask with it, e.g. GUILD_STATUS). */
  auth: { scopes: string[]; expiresAt: number; accessToken: string } | undefined;
  /** Event names (GUILD_STATUS: `GUILD_STATUS:<guild id>`) this game subscribed to. */
  readonly subscriptions = new Set<string>();
  /** Whether this connection set the application's activity (cleared when it goes). */
  setActivity = false;
  private readonly reader = new FrameReader(MAX_FRAME_BYTES);
  private ended = false;
  /** Between the HANDSHAKE and READY (the platform is asked about the client id). */
  private handshaking = false;
  private resolveGone!: () => void;
  /** Settles when the connection is gone (pending consent requests are withdrawn). */
  readonly gone = new Promise<void>((resolve) => (this.resolveGone = resolve));

  constructor(
    private readonly socket: net.Socket,
    private readonly host: ConnectionHost,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.finish());
  }

  get open(): boolean {
    return !this.ended;
  }

  send(payload: unknown): void {
    if (!this.ended) this.socket.write(encodeFrame(Op.FRAME, payload));
  }

  dispatch(evt: string, data: unknown): void {
    this.send({ cmd: 'DISPATCH', evt, data });
  }

  /** Sends a CLOSE frame and ends the socket after it is written. */
  close(code: number, message: string): void {
    if (this.ended) return;
    this.socket.end(encodeFrame(Op.CLOSE, { code, message }));
    this.finish();
  }

  private receive(chunk: Buffer): void {
    if (this.ended) return;
    this.reader.push(chunk);
    for (;;) {
      const next = this.reader.next();
      if (next === undefined || this.ended) return;
      if ('oversized' in next)
        return this.close(
          RpcClose.UNSUPPORTED,
          `Frame too large: ${next.oversized} bytes (at most ${MAX_FRAME_BYTES})`,
        );
      this.frame(next.frame);
    }
  }

  private frame({ op, body }: Frame): void {
    switch (op) {
      case Op.HANDSHAKE:
        if (this.app || this.handshaking) return this.close(RpcClose.UNSUPPORTED, 'Already handshaken');
        this.handshaking = true;
        return void this.handshake(body).catch(() => this.close(RpcClose.NORMAL, 'Unknown Error'));
      case Op.FRAME:
        if (!this.app || this.handshaking) return this.close(RpcClose.UNSUPPORTED, 'Expected a HANDSHAKE frame first');
        return this.command(body);
      case Op.CLOSE:
        // The peer is leaving; answer with our CLOSE so both sides agree the stream is over.
        return this.close(RpcClose.NORMAL, 'Closed by the client');
      case Op.PING:
        if (!this.ended) this.socket.write(encodeRawFrame(Op.PONG, body));
        return;
      case Op.PONG:
        return;
      default:
        return this.close(RpcClose.UNSUPPORTED, `Unknown opcode ${op}`);
    }
  }

  private async handshake(body: Buffer): Promise<void> {
    // Nothing of the handshake is kept but the application id it names: a string that is not text names none.
    const handshake = readFrame(body).payload;
    if (!handshake) return this.close(RpcClose.UNSUPPORTED, 'The HANDSHAKE payload must be a JSON object');
    if (Number(handshake.v) !== 1) return this.close(RpcClose.INVALID_VERSION, 'Invalid Version');
    const clientId = typeof handshake.client_id === 'string' ? handshake.client_id : undefined;
    const app = clientId !== undefined ? await this.host.application(clientId) : undefined;
    if (this.ended) return;
    if (!app) return this.close(RpcClose.INVALID_CLIENT_ID, 'Invalid Client ID');
    this.app = app;
    const ready = await this.host.opened(this);
    this.handshaking = false;
    this.dispatch('READY', ready);
  }

  private command(body: Buffer): void {
    const { payload, notText } = readFrame(body);
    if (!payload) return this.error(null, null, RpcError.INVALID_PAYLOAD, 'Payload is not a JSON object');
    if (notText) {
      // Not text (an unpaired surrogate): stored or relayed — an activity reaches friends — it would break every
      // strict UTF-8 reader. Refused as in an HTTP body or a gateway op, before any command sees it; cmd and nonce are
      // echoed when they are clean.
      const echo = (field: 'cmd' | 'nonce', max: number) => {
        const value = notText[0] === field ? undefined : payload[field];
        return typeof value === 'string' && value.length <= max ? value : null;
      };
      return this.error(
        echo('cmd', Infinity),
        echo('nonce', NONCE_MAX),
        RpcError.INVALID_PAYLOAD,
        `${dottedPath(notText)}: ${INVALID_UNICODE.message}`,
      );
    }
    const nonce = payload.nonce;
    if (nonce !== undefined && nonce !== null && (typeof nonce !== 'string' || nonce.length > NONCE_MAX)) {
      return this.error(
        typeof payload.cmd === 'string' ? payload.cmd : null,
        null,
        RpcError.INVALID_PAYLOAD,
        `nonce must be a string of at most ${NONCE_MAX} characters`,
      );
    }
    const cmd = typeof payload.cmd === 'string' ? payload.cmd : undefined;
    const request = nonce ?? null;
    if (cmd === undefined) return this.error(null, request, RpcError.INVALID_PAYLOAD, 'cmd is required');
    const args = payload.args ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return this.error(cmd, request, RpcError.INVALID_PAYLOAD, 'args must be an object');
    const evt = typeof payload.evt === 'string' ? payload.evt : undefined;
    this.host.command(this, { cmd, nonce: request, evt, args: args as Record<string, unknown> }).then(
      (result) => this.send({ cmd, data: result.data, evt: result.evt ?? null, nonce: request }),
      (error: unknown) => {
        if (error instanceof RpcFailure) return this.error(cmd, request, error.code, error.message);
        this.error(cmd, request, RpcError.UNKNOWN, 'Unknown Error');
      },
    );
  }

  private error(cmd: string | null, nonce: string | null, code: number, message: string): void {
    this.send({ cmd, evt: 'ERROR', nonce, data: { code, message } });
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.resolveGone();
    if (this.app) this.host.closed(this);
  }
}

/**
 * A frame's JSON object (undefined when it is not one, or nests too deep) and, when a string in it is not text, where.
 */
function readFrame(body: Buffer): { payload: Record<string, unknown> | undefined; notText?: Array<string | number> } {
  const read = parseClientJson(body.toString('utf8'));
  if (!read.ok && read.problem === 'invalid-json') return { payload: undefined };
  const value = read.value;
  const payload =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  return read.ok ? { payload } : { payload, notText: read.path };
}
