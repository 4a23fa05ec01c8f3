/**
 * A minimal voice client for the platform's tests: the published voice gateway v8 flow over a real WebSocket and
 * real UDP. It does nothing on its own (no automatic heartbeats, no automatic resume) so tests can assert exact
 * opcodes, sequence numbers and close codes; `join` runs the happy path step by step.
 */
import { createSocket, type Socket } from 'node:dgram';
import { WebSocket } from 'ws';
import { withTimeout, type Closed } from '../gateway/client.js';
import { open, seal, type Mode, type OpenedPacket } from './voice-crypto.js';

export type VoiceMessage = { op: number; d: any; seq?: number };

const WAIT_MS = 5000;

export interface VoiceCredentials {
  /** VOICE_SERVER_UPDATE `endpoint` (host:port, no scheme). */
  endpoint: string;
  /** Identify `server_id` (the lobby id for lobby calls). */
  serverId: string;
  userId: string;
  /** VOICE_STATE_UPDATE `session_id`. */
  sessionId: string;
  token: string;
}

export interface ConnectOptions {
  /** `?v=` query value (default "8"; null: none). */
  version?: string | null;
  /** Trust this certificate and use wss. */
  ca?: string;
  /** Identify's `max_dave_protocol_version` (default 0: no DAVE). */
  maxDaveVersion?: number;
}

/** A FIFO with async waiting: what the server sends, in order. */
class Inbox<T> {
  private readonly items: T[] = [];
  private waiter: (() => void) | null = null;
  ended = false;

  push(item: T): void {
    this.items.push(item);
    this.waiter?.();
  }

  end(): void {
    this.ended = true;
    this.waiter?.();
  }

  pending(): T[] {
    return [...this.items];
  }

  async next(what: string, ms = WAIT_MS): Promise<T> {
    const deadline = Date.now() + ms;
    while (this.items.length === 0) {
      if (this.ended) throw new Error(`closed while waiting for ${what}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
    return this.items.shift()!;
  }
}

/** One voice WebSocket. */
export class VoiceSocket {
  readonly inbox = new Inbox<VoiceMessage>();
  readonly closed: Promise<Closed>;
  /** Last `seq` seen (for `seq_ack`), -1 before any. */
  lastSeq = -1;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.inbox.end();
        resolve({ code, reason: reason.toString() });
      });
    });
    ws.on('error', () => undefined);
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        // Binary frames are DAVE only: [u16 seq][u8 op][payload].
        this.lastSeq = data.readUInt16BE(0);
        this.inbox.push({ op: data[2]!, d: data.subarray(3), seq: this.lastSeq });
        return;
      }
      const message = JSON.parse(data.toString('utf8')) as VoiceMessage;
      if (typeof message.seq === 'number') this.lastSeq = message.seq;
      this.inbox.push(message);
    });
  }

  static open(endpoint: string, options: ConnectOptions = {}): Promise<VoiceSocket> {
    const version = options.version === undefined ? '8' : options.version;
    const url = `${options.ca ? 'wss' : 'ws'}://${endpoint}${version === null ? '' : `?v=${version}`}`;
    const ws = new WebSocket(url, options.ca ? { ca: options.ca } : {});
    const socket = new VoiceSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  next(what = 'a voice message'): Promise<VoiceMessage> {
    return this.inbox.next(what);
  }

  /** Skips messages until one with this op. */
  async nextOf(op: number): Promise<VoiceMessage> {
    for (;;) {
      const message = await this.inbox.next(`voice op ${op}`);
      if (message.op === op) return message;
    }
  }

  heartbeat(t = Date.now()): void {
    this.send(3, { t, seq_ack: this.lastSeq });
  }

  expectClose(): Promise<Closed> {
    return withTimeout(this.closed, 'voice socket close');
  }

  close(code = 1000): Promise<Closed> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code);
    return this.closed;
  }
}

/** A UDP media socket bound to loopback. */
export class MediaSocket {
  readonly packets = new Inbox<Buffer>();
  private constructor(readonly socket: Socket) {
    socket.on('message', (msg) => this.packets.push(msg));
  }

  static async open(): Promise<MediaSocket> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    return new MediaSocket(socket);
  }

  get port(): number {
    return this.socket.address().port;
  }

  send(packet: Buffer, port: number, address: string): void {
    this.socket.send(packet, port, address);
  }

  close(): void {
    this.packets.end();
    this.socket.close();
  }
}

export function discoveryRequest(ssrc: number): Buffer {
  const packet = Buffer.alloc(74);
  packet.writeUInt16BE(1, 0);
  packet.writeUInt16BE(70, 2);
  packet.writeUInt32BE(ssrc, 4);
  return packet;
}

/** A joined participant: voice socket, UDP socket, SSRC and key. */
export class TestVoiceClient {
  sequence = Math.floor(Math.random() * 0xffff);
  timestamp = Math.floor(Math.random() * 0xffffffff);
  counter = 0;

  constructor(
    readonly credentials: VoiceCredentials,
    public socket: VoiceSocket,
    /** Where this client's media goes out from and comes in to (`rebind` swaps it, as a NAT rebinding would). */
    public media: MediaSocket,
    readonly ssrc: number,
    readonly server: { ip: string; port: number },
    readonly mode: Mode,
    readonly key: Buffer,
    /** Messages received during the join after Session Description was consumed (none are skipped). */
    readonly ready: VoiceMessage,
    readonly sessionDescription: VoiceMessage,
    readonly discovered: { address: string; port: number },
  ) {}

  /** Hello → Identify → Ready → IP discovery → Select Protocol → Session Description. */
  static async join(credentials: VoiceCredentials, mode: Mode, options: ConnectOptions = {}): Promise<TestVoiceClient> {
    const socket = await VoiceSocket.open(credentials.endpoint, options);
    const hello = await socket.next('Hello');
    if (hello.op !== 8) throw new Error(`expected Hello, got op ${hello.op}`);
    socket.send(0, {
      server_id: credentials.serverId,
      user_id: credentials.userId,
      session_id: credentials.sessionId,
      token: credentials.token,
      max_dave_protocol_version: options.maxDaveVersion ?? 0,
    });
    const ready = await socket.nextOf(2);
    const media = await MediaSocket.open();
    media.send(discoveryRequest(ready.d.ssrc), ready.d.port, ready.d.ip);
    const response = await media.packets.next('IP discovery response');
    const address = response.subarray(8, 72).toString('ascii').replace(/\0.*$/s, '');
    const port = response.readUInt16BE(72);
    socket.send(1, { protocol: 'udp', data: { address, port, mode } });
    const description = await socket.nextOf(4);
    const key = Buffer.from(description.d.secret_key as number[]);
    return new TestVoiceClient(
      credentials,
      socket,
      media,
      ready.d.ssrc,
      { ip: ready.d.ip, port: ready.d.port },
      mode,
      key,
      ready,
      description,
      { address, port },
    );
  }

  speaking(flags = 1): void {
    this.socket.send(5, { speaking: flags, delay: 0, ssrc: this.ssrc });
  }

  /** Sends one 20 ms frame (an opaque payload: the relay never decodes it); returns the datagram as sent. */
  sendFrame(payload: Buffer, extension?: Buffer): Buffer {
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + 960) >>> 0;
    this.counter = (this.counter + 1) >>> 0;
    const packet = seal(
      this.mode,
      this.key,
      { sequence: this.sequence, timestamp: this.timestamp, ssrc: this.ssrc, ...(extension && { extension }) },
      payload,
      this.counter,
    );
    this.media.send(packet, this.server.port, this.server.ip);
    return packet;
  }

  /** From now on media goes out from (and is expected on) a new local port; returns the socket given up, still open. */
  async rebind(): Promise<MediaSocket> {
    const previous = this.media;
    this.media = await MediaSocket.open();
    return previous;
  }

  /** The next relayed packet, decrypted with this client's key. */
  async receive(): Promise<OpenedPacket> {
    return open(this.mode, this.key, await this.media.packets.next('a relayed RTP packet'));
  }

  /** Resume on a new socket with `seq_ack` = the last seq seen; returns the socket after op 9. */
  async resume(options: ConnectOptions = {}): Promise<VoiceSocket> {
    const lastSeq = this.socket.lastSeq;
    const socket = await VoiceSocket.open(this.credentials.endpoint, options);
    await socket.nextOf(8);
    socket.lastSeq = lastSeq;
    socket.send(7, {
      server_id: this.credentials.serverId,
      session_id: this.credentials.sessionId,
      token: this.credentials.token,
      seq_ack: lastSeq,
    });
    this.socket = socket;
    return socket;
  }

  async close(): Promise<void> {
    this.media.close();
    await this.socket.close();
  }
}
