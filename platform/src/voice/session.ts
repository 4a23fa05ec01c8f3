/**
 * One participant's voice session: what survives a dropped voice WebSocket (SSRC, encryption key, the buffered
 * messages for resume). The socket it is attached to comes and goes; policy lives in voice-gateway.ts.
 */
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { createTransportCipher, KEY_BYTES, type TransportCipher } from './ciphers.js';
import { VoiceOp, type EncryptionMode } from './protocol.js';
import { ReplayWindow } from './replay-window.js';
import { ResumeBuffer } from './resume-buffer.js';
import type { VoiceState } from './voice-states.js';

/** Control messages that are never buffered nor numbered: they only make sense on the socket they answer. */
const UNSEQUENCED = new Set<number>([VoiceOp.Hello, VoiceOp.HeartbeatAck, VoiceOp.Ready, VoiceOp.Resumed]);

export interface UdpEndpoint {
  address: string;
  port: number;
}

export class VoiceSession {
  ws: WebSocket | null = null;
  /** `?v=` of the attached socket (seq and `{t, seq_ack}` heartbeats from v8). */
  version = 8;
  lastHeartbeatAt = Date.now();
  /** Date.now() when the socket was lost; meaningful only while detached. */
  detachedAt = 0;
  /** Chosen by Select Protocol; until then the relay neither accepts nor sends this participant's media. */
  cipher: TransportCipher | null = null;
  secretKey: Buffer | null = null;
  /**
   * Where this participant's media goes: announced in Select Protocol, then moved by its fresh authentic packets
   * from elsewhere (NAT rebinding; udp-relay.ts decides).
   */
  udp: UdpEndpoint | null = null;
  /** When `udp` last moved (the relay's clock); moves are rate-limited. */
  udpMovedAt = Number.NEGATIVE_INFINITY;
  /** Which of this participant's nonce counters the relay accepted, under the current key. */
  replay = new ReplayWindow();
  /** Nonce counter of the packets the relay sends to this participant (its own key, so its own counter). */
  sendCounter = 0;
  /** Last Speaking flags (relayed to participants who join later so they can map the SSRC to the user). */
  speaking = 0;
  /** DAVE: the highest protocol version the client supports (Identify); 0 = none. */
  maxDaveVersion = 0;
  readonly buffer: ResumeBuffer;

  constructor(
    readonly state: VoiceState,
    readonly ssrc: number,
    bufferCapacity: number,
  ) {
    this.buffer = new ResumeBuffer(bufferCapacity);
  }

  get userId(): string {
    return this.state.userId;
  }

  get lobbyId(): string {
    return this.state.lobbyId;
  }

  /** Sends a JSON message; at v8 every message but the control ones carries `seq` and is kept for resume. */
  send(op: number, d: unknown): void {
    if (UNSEQUENCED.has(op) || this.version < 8) {
      this.ws?.send(JSON.stringify({ op, d }));
      return;
    }
    const frame = JSON.stringify({ op, d, seq: this.buffer.nextSeq() });
    this.buffer.push(frame);
    this.ws?.send(frame);
  }

  /** Sends a binary message `[u16 seq][u8 op][payload]` (the DAVE framing), kept for resume. */
  sendBinary(op: number, payload: Buffer): void {
    const frame = Buffer.alloc(3 + payload.length);
    frame.writeUInt16BE(this.buffer.nextSeq(), 0);
    frame.writeUInt8(op, 2);
    payload.copy(frame, 3);
    this.buffer.push(frame);
    this.ws?.send(frame);
  }

  /** Picks the mode and a fresh 32-byte key; returns the key for Session Description. */
  selectMode(mode: EncryptionMode): Buffer {
    this.secretKey = randomBytes(KEY_BYTES);
    this.cipher = createTransportCipher(mode, this.secretKey);
    // Counters are unique per key: a new key starts a new window (packets under the old one no longer open).
    this.replay = new ReplayWindow();
    return this.secretKey;
  }
}
